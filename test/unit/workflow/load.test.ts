import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, UsageError } from '../../../src/shared/errors.js';
import { checkWorkflowText, loadWorkflow, loadWorkflowFile } from '../../../src/workflow/load.js';

const good = `id: research
recovery: replace_node
steps:
  - id: fetch
    agent_type: echo
  - id: answer
    agent_type: echo
    depends_on: [fetch]
    timeout_ms: 500
`;

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('loadWorkflow', () => {
  it('loads a valid definition', () => {
    const def = loadWorkflow(good);
    expect(def.id).toBe('research');
    expect(def.steps[1]).toEqual({ id: 'answer', agent_type: 'echo', depends_on: ['fetch'], timeout_ms: 500 });
  });

  it('reports every problem with path and line:column', () => {
    const text = `id: broken
steps:
  - id: a
    agent_type: echo
    depends_on: [ghost]
  - id: a
    agent_typo: echo
  - id: c
    agent_type: echo
    retries: -1
`;
    const { errors } = checkWorkflowText(text);
    const brief = errors.map((e) => `${e.line}:${e.column} ${e.path}`);
    expect(brief).toEqual(
      expect.arrayContaining([
        '5:18 steps[0].depends_on[0]',
        '6:9 steps[1].id',
        '7:5 steps[1].agent_typo',
        '6:5 steps[1].agent_type',
        '10:14 steps[2].retries',
      ]),
    );
    expect(() => loadWorkflow(text, 'wf.yaml')).toThrow(
      /wf\.yaml:5:18 steps\[0\]\.depends_on\[0\]: unknown step 'ghost'/,
    );
    expect(() => loadWorkflow(text, 'wf.yaml')).toThrow(UsageError);
  });

  it('reports YAML syntax errors and duplicate keys with their position', () => {
    const { errors } = checkWorkflowText('id: x\nid: y\nsteps: []\n');
    expect(errors[0]).toMatchObject({ line: 2, column: 1 });
    expect(errors[0].message).toMatch(/unique/i);
    const syntax = checkWorkflowText('id: x\nsteps: [\n');
    expect(syntax.errors.length).toBeGreaterThan(0);
    expect(syntax.errors[0].line).toBeGreaterThan(0);
  });

  it('rejects an alias bomb instead of expanding it', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const { errors } = checkWorkflowText(bomb.join('\n'));
    expect(errors[0].message).toMatch(/alias/i);
  });

  it('loads files, refuses missing and oversized ones', async () => {
    dir = await mkdtemp(join(tmpdir(), 'wf-'));
    const file = join(dir, 'wf.yaml');
    await writeFile(file, good);
    expect((await loadWorkflowFile(file)).id).toBe('research');
    await expect(loadWorkflowFile(join(dir, 'nope.yaml'))).rejects.toBeInstanceOf(NotFoundError);
    const big = join(dir, 'big.yaml');
    await writeFile(big, `id: x\n# ${'y'.repeat(1024 * 1024)}\n`);
    await expect(loadWorkflowFile(big)).rejects.toThrow(/limit/);
  });
});
