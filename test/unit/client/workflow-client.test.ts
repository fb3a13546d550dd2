import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client as ClientType } from '../../../src/index.js';
import { pkg } from './pkg.js';

const { Client, WorkflowClient, UsageError, ConflictError, WORKFLOW_STATUS, STEP_STATUS } = pkg;

let dir: string | undefined;
let client: ClientType | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function file(name: string, text: string): Promise<string> {
  dir ??= await mkdtemp(join(tmpdir(), 'wf-client-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

describe('WorkflowClient', () => {
  it('runs a workflow file through the workflow service', async () => {
    client = new Client({
      llm: {},
      retrieval: { documents: [{ id: 'k1', text: 'checkpoints restore corrupted memory' }] },
      workflow: {},
    });
    const path = await file(
      'research.yaml',
      `id: research
recovery: retry
steps:
  - id: search
    agent_type: retrieve
    input: { query: "{{input}}", top_k: 1 }
  - id: compute
    agent_type: llm
    input: "What is 10 - 3?"
  - id: report
    agent_type: echo
    depends_on: [search, compute]
    input: "found {{steps.search}} / {{steps.compute}}"
`,
    );
    const wf = new WorkflowClient(client);
    const run = await wf.executeFromFile(path, 'corrupted memory');
    expect(run.status).toBe(WORKFLOW_STATUS.completed);
    expect(run.output).toMatch(/^found \[\{"id":"k1".*\}\] \/ The answer is 7\.$/);
    expect(client.workflow().listWorkflows()).toEqual([{ id: 'research', steps: 3 }]);
    // the same definition again runs again; a different one under that id conflicts
    expect((await wf.executeFromFile(path, 'checkpoints')).status).toBe('completed');
    const def = await wf.loadWorkflow(path);
    await expect(wf.execute({ ...def, steps: def.steps.slice(0, 1) }, 'x')).rejects.toBeInstanceOf(ConflictError);
  });

  it('names unknown agent types with their line and column', async () => {
    client = new Client({ workflow: {} });
    const path = await file('bad.yaml', `id: bad\nsteps:\n  - id: a\n    agent_type: llm\n`);
    const error = await new WorkflowClient(client).loadWorkflow(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain(
      `${path}:4:17 steps[0].agent_type: unknown agent type 'llm' (registered: echo)`,
    );
  });

  it('reports a failing step as a failed workflow, dependents skipped', async () => {
    client = new Client({
      llm: { provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0 },
      workflow: {},
    });
    const run = await new WorkflowClient(client).execute(
      {
        id: 'f',
        steps: [
          { id: 'ask', agent_type: 'llm', retries: 0 },
          { id: 'after', agent_type: 'echo', depends_on: ['ask'] },
        ],
      },
      'hello',
    );
    expect(run.status).toBe(WORKFLOW_STATUS.failed);
    expect(run.steps.map((s) => s.status)).toEqual([STEP_STATUS.failed, STEP_STATUS.skipped]);
    expect(run.error).toMatch(/step 'ask' failed/);
  });
});
