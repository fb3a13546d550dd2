import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, UsageError } from '../../../src/shared/errors.js';
import { AgentRegistry } from '../../../src/workflow/registry.js';
import { WorkflowService } from '../../../src/workflow/service.js';
import type { WorkflowDefinition, WorkflowEvent } from '../../../src/workflow/types.js';

const pipeline: WorkflowDefinition = {
  id: 'pipeline',
  name: 'Two steps',
  steps: [
    { id: 'first', agent_type: 'upper' },
    { id: 'second', agent_type: 'gate', depends_on: ['first'] },
  ],
};

function setup() {
  const registry = new AgentRegistry();
  const releases: Array<() => void> = [];
  registry.register('upper', () => ({ execute: async (ctx) => String(ctx.workflowInput).toUpperCase() }));
  // waits for the test to release it, so the test can look at events mid-run
  registry.register('gate', () => ({
    execute: (ctx) => new Promise((resolve) => releases.push(() => resolve(`${String(ctx.inputs.first)}!`))),
  }));
  registry.register('broken', () => ({ execute: async () => Promise.reject(new Error('agent crashed')) }));
  const service = new WorkflowService({ agentRegistry: registry });
  return { service, releases };
}

const tick = async () => {
  for (let i = 0; i < 30; i++) await Promise.resolve();
};

describe('WorkflowService', () => {
  it('registers, lists and returns workflows; rejects duplicates, invalid and unknown ids with typed errors', () => {
    const { service } = setup();
    service.registerWorkflow(pipeline);
    expect(() => service.registerWorkflow(pipeline)).toThrow(ConflictError);
    expect(() => service.registerWorkflow({ id: 'x', steps: [{ id: 'a', agent_type: 'nobody' }] })).toThrow(UsageError);
    expect(() => service.getWorkflow('missing')).toThrow(NotFoundError);
    expect(service.listWorkflows()).toEqual([{ id: 'pipeline', name: 'Two steps', steps: 2 }]);
    const copy = service.getWorkflow('pipeline');
    copy.steps.pop(); // callers cannot damage the registered definition
    expect(service.getWorkflow('pipeline').steps).toHaveLength(2);
  });

  it('executes a workflow and reports a failure through status', async () => {
    const { service, releases } = setup();
    service.registerWorkflow(pipeline);
    service.registerWorkflow({ id: 'bad', steps: [{ id: 'x', agent_type: 'broken', retries: 1 }] });
    const run = service.execute({ workflow_id: 'pipeline', input: 'hi', execution_id: 'e-1' });
    await tick();
    releases[0]();
    const ok = await run;
    expect(ok).toMatchObject({ execution_id: 'e-1', status: 'completed', output: 'HI!', error: null });
    expect(service.getExecution('e-1').status).toBe('completed');

    const failed = await service.execute({ workflow_id: 'bad' });
    expect(failed.status).toBe('failed');
    expect(failed.output).toBeNull();
    expect(failed.steps[0]).toMatchObject({ status: 'failed', attempts: 2, error: 'agent crashed' });
    await expect(service.execute({ workflow_id: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.execute({ workflow_id: 'bad', execution_id: 'e-1' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('streams events as steps happen: the first arrives before the last step finishes', async () => {
    const { service, releases } = setup();
    service.registerWorkflow(pipeline);
    const seen: WorkflowEvent[] = [];
    let releasedAt = -1;
    for await (const event of service.executeStream({ workflow_id: 'pipeline', input: 'go' })) {
      seen.push(event);
      if (event.type === 'step.started' && event.step_id === 'second') {
        // the stream delivered everything so far while `second` is still blocked
        releasedAt = seen.length;
        setImmediate(() => releases[0]());
      }
    }
    expect(releasedAt).toBe(4);
    expect(seen.map((e) => e.type)).toEqual([
      'workflow.started',
      'step.started',
      'step.completed',
      'step.started',
      'step.completed',
      'workflow.completed',
    ]);
    expect(new Set(seen.map((e) => e.execution_id)).size).toBe(1);
  });

  it('streams a failure as step.failed then workflow.failed', async () => {
    const { service } = setup();
    service.registerWorkflow({ id: 'bad', recovery: 'fail_fast', steps: [{ id: 'x', agent_type: 'broken' }] });
    const types: string[] = [];
    for await (const e of service.executeStream({ workflow_id: 'bad' })) types.push(e.type);
    expect(types).toEqual(['workflow.started', 'step.started', 'step.failed', 'workflow.failed']);
    expect(() => service.executeStream({ workflow_id: 'ghost' })).toThrow(NotFoundError);
  });

  it('cancels the execution when the stream consumer stops early', async () => {
    const { service } = setup();
    service.registerWorkflow(pipeline);
    const stream = service.executeStream({ workflow_id: 'pipeline', input: 'x', execution_id: 'early' });
    for await (const e of stream) if (e.type === 'step.started' && e.step_id === 'second') break;
    await tick();
    expect(service.getExecution('early').status).toBe('cancelled');
  });
});
