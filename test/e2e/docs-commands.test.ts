/**
 * The commands in the docs are run, as a reader would type them, against the built CLI
 * (`arena` is `node bin/arena.js`, in a scratch folder that links the clone's scenarios/,
 * strategies/ and examples/):
 * - every `<!-- tour -->` block of the README: each `$ arena …` exits 0 (or the code a following
 *   `$ echo $?` shows), and each output line shown (not `…`) is printed, compared with digits and
 *   padding left out, since scores and timings are measured, not fixed;
 * - every `<!-- sample -->` block of the docs: the output shown is exactly what the tool prints.
 *   `ARENA_UPDATE_DOCS=1` writes what it printed into the block instead (after a deliberate change).
 * A `$ cat FILE` line writes FILE with the lines shown under it before the block runs.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { type Block, docFiles, fencedBlocks, readDoc, ROOT } from '../helpers/markdown.js';

interface Step {
  command: string;
  shown: string[];
  exitCode: number;
}

/** a console block as the commands it shows, each with the output under it */
function steps(block: Block): Step[] {
  const out: Step[] = [];
  for (const line of block.code.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('$ ')) {
      const command = line.slice(2);
      const exit = /^echo \$\?$/.test(command);
      if (exit && out.length > 0)
        out.at(-1)!.exitCode = Number.NaN; // filled by the next output line
      else out.push({ command, shown: [], exitCode: 0 });
      continue;
    }
    const last = out.at(-1);
    if (!last) throw new Error(`line ${block.line}: output before any command`);
    if (Number.isNaN(last.exitCode)) last.exitCode = Number(line);
    else last.shown.push(line);
  }
  return out;
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** a folder that looks like the clone to the commands, with `arena` on the PATH */
function workDir(): { cwd: string; env: Record<string, string> } {
  const cwd = mkdtempSync(join(tmpdir(), 'arena-docs-'));
  scratch.push(cwd);
  for (const name of ['scenarios', 'strategies', 'examples']) symlinkSync(join(ROOT, name), join(cwd, name));
  const bin = join(cwd, '.bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'arena'), `#!/bin/sh\nexec node ${JSON.stringify(join(ROOT, 'bin/arena.js'))} "$@"\n`, {
    mode: 0o755,
  });
  return { cwd, env: { PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1', CI: '1', HOME: cwd } };
}

async function run(block: Block) {
  const { cwd, env } = workDir();
  const list = steps(block);
  for (const step of list) {
    const cat = /^cat (\S+)$/.exec(step.command);
    if (cat) writeFileSync(join(cwd, cat[1]!), `${step.shown.join('\n')}\n`);
  }
  const results = [];
  for (const step of list) {
    const r = await execa('bash', ['-c', step.command], {
      cwd,
      env,
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });
    results.push({ step, exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
  }
  return results;
}

/**
 * what a shown line and a printed line have in common when the figures differ: no digits, no grade
 * (a score measured on a busy machine may grade lower), one space
 */
const shape = (line: string) =>
  line
    .replace(/\d+(?:\.\d+)?/g, '#')
    .replace(/# (?:A\+|[ABCDF])(?=\s|│|$)/g, '# G')
    .replace(/─+/g, '─')
    .replace(/\s+/g, ' ')
    .trim();

const tours = fencedBlocks(readDoc('README.md')).filter((b) => b.marker === 'tour');
const samples = docFiles().flatMap((file) =>
  fencedBlocks(readDoc(file))
    .filter((b) => b.marker === 'sample')
    .map((block) => ({ file, block })),
);

describe("the README's tour", () => {
  it('has its commands marked for this test', () => {
    expect(tours.length).toBeGreaterThanOrEqual(4);
    for (const b of tours) expect(steps(b).some((s) => s.command.startsWith('arena '))).toBe(true);
  });

  it.concurrent.for(tours.map((b) => [`line ${b.line}: ${steps(b).at(-1)!.command}`, b] as const))(
    '%s',
    async ([, block], { expect }) => {
      for (const { step, exitCode, stdout, stderr } of await run(block)) {
        expect(exitCode, `${step.command}\n${stderr}`).toBe(step.exitCode);
        const printed = new Set(`${stdout}\n${stderr}`.split('\n').map(shape));
        const missing = step.shown.filter((l) => l.trim() !== '…').filter((l) => !printed.has(shape(l)));
        expect(missing, `${step.command} printed:\n${stdout}\n${stderr}`).toEqual([]);
      }
    },
  );
});

describe('sample outputs in the docs', () => {
  it('exist', () => {
    expect(samples.length).toBeGreaterThanOrEqual(2);
  });

  it.concurrent.for(samples.map((s) => [`${s.file}:${s.block.line}`, s] as const))(
    '%s is what the tool prints',
    async ([, { file, block }], { expect }) => {
      const results = await run(block);
      const printed = (s: string) => (s ? s.replace(/[ \t]+$/gm, '').split('\n') : []);
      const expected = results.map(({ step }) => ({ command: step.command, output: step.shown }));
      const actual = results.map(({ step, stdout, stderr }) => ({
        command: step.command,
        output: [...printed(stdout), ...printed(stderr)],
      }));
      for (const r of results) expect(r.exitCode, `${r.step.command}\n${r.stderr}`).toBe(r.step.exitCode);
      if (process.env.ARENA_UPDATE_DOCS === '1') {
        const text = actual.map((a) => [`$ ${a.command}`, ...a.output].join('\n')).join('\n');
        const doc = readDoc(file);
        writeFileSync(join(ROOT, file), doc.replace(block.code, `${text}\n`));
        return;
      }
      expect(actual, `${file}:${block.line} is stale: ARENA_UPDATE_DOCS=1 rewrites it`).toEqual(expected);
    },
  );
});
