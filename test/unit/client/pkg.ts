/**
 * The package as a user gets it: `import('chaos-arena')` resolves through
 * package.json "exports" to the built dist/ (run `npm run build` first; `npm
 * test` does). Types come from src so the type check never depends on a build.
 */
import type * as Api from '../../../src/index.js';

const packageName = 'chaos-arena';
export const pkg = (await import(packageName)) as typeof Api;
