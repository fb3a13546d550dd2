/**
 * The public API as a user installs it (DESIGN §2): `npm pack` the built tree, unpack it into a scratch
 * consumer project, compile a TypeScript program that imports the root and every subpath against the
 * published types, run it, and run the README's library example as written. Needs dist/ (`npm test`
 * builds first). Beside package-consumer.test.ts, which checks what the tarball holds and loads.
 */
import { execa } from 'execa';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { PACK_ENV as ENV, packIntoConsumer } from '../helpers/packed.js';
import { fencedBlocks, readDoc } from '../helpers/markdown.js';

const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

/** each subpath, one value from it used, one type from it checked to be no `any` */
const CONSUMER = `import { isArenaError, UsageError, loadScenario, type ArenaRoot } from 'chaos-arena';
import { TCP_FAULT_TYPES, startTcpProxy, type TcpProxyOptions } from 'chaos-arena/proxies';
import { createEmbeddedTarget, TARGET_KINDS, type Target } from 'chaos-arena/targets';
import { MemoryEventStore, type EventStore } from 'chaos-arena/stores';
import { ROUTE_GROUPS, createApp, type AppOptions } from 'chaos-arena/server';

type IsAny<T> = 0 extends 1 & T ? true : false;
type Typed<T> = IsAny<T> extends true ? never : true;
const typed: [Typed<ArenaRoot>, Typed<TcpProxyOptions>, Typed<Target>, Typed<EventStore>, Typed<AppOptions>] = [true, true, true, true, true];

const store: EventStore = new MemoryEventStore();
await store.append('consumer', [{ type: 'checked', data: {} }], 0);

// a second copy of the package (the repository's own build): its errors are still recognised by code
const other = (await import(process.argv[2]!)) as typeof import('chaos-arena');
let caught: unknown;
try {
  other.loadScenario('name: x\\nactions: 3');
} catch (err) {
  caught = err;
}
console.log(JSON.stringify({
  typed: typed.length,
  events: (await store.read('consumer')).length,
  tcp: TCP_FAULT_TYPES.length > 0 && typeof startTcpProxy === 'function',
  targets: TARGET_KINDS.includes('embedded') && typeof createEmbeddedTarget === 'function',
  server: ROUTE_GROUPS.length > 0 && typeof createApp === 'function',
  twoCopies: other.UsageError !== UsageError,
  instanceOf: caught instanceof UsageError,
  isArenaError: isArenaError(caught, 'invalid_scenario'),
  sameCopy: isArenaError((() => { try { loadScenario('name: x\\nactions: 3'); } catch (e) { return e; } })(), 'invalid_scenario'),
}));
`;

/** the README's library example, word for word (its output differs from run to run only in the score) */
/** the README's library example, word for word: the first js block of its "Library" section */
const README_EXAMPLE = (() => {
  const readme = readDoc('README.md');
  const section = readme.slice(readme.indexOf('\n## Library\n'));
  const block = fencedBlocks(section).find((b) => b.lang === 'js');
  if (!block) throw new Error('README.md: no js block in the Library section');
  return block.code;
})();

let scratch: string;

beforeAll(async () => {
  ({ scratch } = await packIntoConsumer('subpaths-', CONSUMER));
  writeFileSync(join(scratch, 'readme.mjs'), README_EXAMPLE);
}, 60_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the public API from a packed tarball', () => {
  it('the root and every subpath compile against their types and load; errors are recognised across copies', async () => {
    const compiled = await execa('node', [TSC, '-p', scratch], {
      cwd: scratch,
      reject: false,
      extendEnv: false,
      env: ENV,
    });
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.exitCode).toBe(0);
    const secondCopy = pathToFileURL(join(REPO_ROOT, 'dist/index.js')).href;
    const run = await execa('node', ['out/main.js', secondCopy], {
      cwd: scratch,
      reject: false,
      extendEnv: false,
      env: ENV,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      typed: 5,
      events: 1,
      tcp: true,
      targets: true,
      server: true,
      twoCopies: true,
      instanceOf: false,
      isArenaError: true,
      sameCopy: true,
    });
  }, 60_000);

  it("runs the README's library example: a scenario on the embedded target in five lines", async () => {
    const run = await execa('node', ['readme.mjs'], { cwd: scratch, reject: false, extendEnv: false, env: ENV });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^passed \d+(\.\d)? (A\+|A|B)$/);
  }, 120_000);
});
