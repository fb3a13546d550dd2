/** Help texts read the same everywhere: command lines capitalised, option lines not, examples on every group, the environment complete. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, runWith } from '../../../src/cli/main.js';

const sink = { write: () => true };
const ctx = { stdout: sink, stderr: sink, env: {}, cwd: process.cwd(), signal: new AbortController().signal };
const program = await buildProgram(ctx);

function commands(c: Command, path = 'arena'): Array<{ path: string; command: Command }> {
  return [
    { path, command: c },
    ...c.commands.filter((s) => s.name() !== 'help').flatMap((s) => commands(s, `${path} ${s.name()}`)),
  ];
}

async function help(argv: string[]): Promise<string> {
  let out = '';
  const code = await runWith([...argv, '--help'], { ...ctx, stdout: { write: (s: string) => ((out += s), true) } });
  expect(code).toBe(0);
  return out;
}

/** every ARENA_* variable the source reads, but those the arena sets for its own children */
function arenaEnvVars(): string[] {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name))
        for (const m of readFileSync(p, 'utf8').matchAll(/env\.(ARENA_[A-Z_]+)|'(ARENA_[A-Z_]+)'/g))
          found.add(m[1] ?? m[2]!);
    }
  };
  walk('src');
  return [...found].filter((v) => v !== 'ARENA_RUN_DIR' && !v.startsWith('ARENA_WATCHDOG_')).sort();
}

describe('help texts', () => {
  it('every command line starts with a capital, every option line with a small letter', () => {
    const all = commands(program);
    expect(all.length).toBeGreaterThan(20);
    const badCommands = all.filter(({ command }) => !/^[A-Z]/.test(command.description())).map((c) => c.path);
    expect(badCommands).toEqual([]);
    const badOptions = all.flatMap(({ path, command }) =>
      // an acronym may lead (`HTTP mode: …`, `JSON array …`)
      command.options.filter((o) => /^[A-Z][a-z]/.test(o.description)).map((o) => `${path} ${o.long}`),
    );
    expect(badOptions).toEqual([]);
  });

  it('serve says it serves any target, and target has examples', async () => {
    const serve = await help(['serve']);
    expect(serve).not.toMatch(/on an embedded runtime\b/);
    expect(serve.replace(/\s+/g, ' ')).toContain('on a target: the embedded runtime unless --target');
    const target = await help(['target']);
    expect(target).toContain('Examples:\n  $ arena target serve --port 9500');
    expect(target).toContain('$ arena target check http://127.0.0.1:9500');
  });

  it('the environment list of arena --help names every ARENA_* variable the arena reads', async () => {
    const root = await help([]);
    const vars = arenaEnvVars();
    expect(vars).toEqual(
      expect.arrayContaining(['ARENA_API_KEY', 'ARENA_PROXY_TOKEN', 'ARENA_STORE', 'ARENA_TARGET_TOKEN']),
    );
    for (const v of vars) expect(root).toMatch(new RegExp(`^ {2}${v} +\\S`, 'm'));
  });
});
