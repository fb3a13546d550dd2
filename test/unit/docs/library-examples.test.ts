/**
 * Runs the library guide's client and workflow examples exactly as written, as a user would
 * (node, importing 'chaos-arena' through the package's exports), so they cannot rot.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// inside the package, so the self-reference 'chaos-arena' resolves; .arena/ is git-ignored
const workDir = join(root, '.arena', `library-example-${process.pid}`);

interface Block {
  lang: string;
  code: string;
}

async function embeddingBlocks(): Promise<Block[]> {
  const guide = await readFile(join(root, 'docs/guides/library.md'), 'utf8');
  const start = guide.indexOf('\n## Clients and workflows');
  expect(start, 'the library guide has a "## Clients and workflows" section').toBeGreaterThan(-1);
  const rest = guide.slice(start + 1);
  const next = rest.indexOf('\n## ');
  const section = next === -1 ? rest : rest.slice(0, next);
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], code: m[2] }));
}

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true });
});

describe('library guide: clients and workflows', () => {
  it('runs every example and prints what its comments say', async () => {
    const blocks = await embeddingBlocks();
    expect(blocks.filter((b) => b.lang === 'js').length).toBeGreaterThanOrEqual(2);
    await mkdir(workDir, { recursive: true });
    let n = 0;
    for (const block of blocks) {
      if (block.lang === 'yaml') {
        // a YAML block names its file in its first line: `# client.yaml`
        const name = /^#\s*(\S+\.ya?ml)/.exec(block.code)?.[1];
        expect(name, 'yaml block starts with "# <file>.yaml"').toBeTruthy();
        await writeFile(join(workDir, name!), block.code);
        continue;
      }
      if (block.lang !== 'js') continue;
      const file = join(workDir, `example-${++n}.mjs`);
      await writeFile(file, block.code);
      const result = await execa('node', [file], {
        cwd: workDir,
        reject: false,
        env: { PATH: process.env.PATH!, NO_COLOR: '1' },
        extendEnv: false,
      });
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      // each console.log line's trailing comment states its output
      const expected = [...block.code.matchAll(/console\.log\(.*\);\s*\/\/ (.*)$/gm)].flatMap((m) => m[1].split(', '));
      expect(result.stdout.split('\n')).toEqual(expected);
    }
  });
});
