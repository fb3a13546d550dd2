/**
 * The MCP SDK is loaded only when an MCP proxy starts: no module the proxy or its command
 * imports statically may import it (type-only imports are erased), so `arena` and its other
 * commands never pay for it.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
// static value imports and re-exports; `import type` / `export type` are erased by tsc
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[\s\S]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

/** every bare package reached through static imports from `entry`, and the file that imports it */
function staticPackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [resolve(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(STATIC)) {
      if (spec!.startsWith('.')) queue.push(resolve(dirname(file), spec!.replace(/\.js$/, '.ts')));
      else if (!spec!.startsWith('node:')) packages.set(spec!, file.slice(ROOT.length));
    }
  }
  return packages;
}

describe('the MCP SDK stays lazy', () => {
  it.each([
    'src/index.ts',
    'src/runtime/mcp/index.ts',
    'src/proxies/mcp/index.ts',
    'src/cli/commands/proxy.ts',
    'src/cli/commands/proxy-mcp.ts',
  ])('%s imports no @modelcontextprotocol module statically', (entry) => {
    const packages = staticPackages(entry);
    expect([...packages.keys()].filter((p) => p.startsWith('@modelcontextprotocol'))).toEqual([]);
  });

  it('the proxies entry (chaos-arena/proxies) reaches the MCP proxy without a static SDK import through it', () => {
    const viaProxy = staticPackages('src/proxies/mcp/index.ts');
    expect(readFileSync(resolve(ROOT, 'src/proxies/index.ts'), 'utf8')).toContain("from './mcp/index.js'");
    expect([...viaProxy.keys()].filter((p) => p.startsWith('@modelcontextprotocol'))).toEqual([]);
  });

  it("the walk does find the SDK where it is imported statically (the tests' MCP helper)", () => {
    expect(
      [...staticPackages('test/helpers/mcp.ts').keys()].some((p) => p.startsWith('@modelcontextprotocol/sdk')),
    ).toBe(true);
  });
});
