/**
 * `arena trials --workers` (src/arena/trials/on-queue.ts): the rounds go on the queue one after
 * another in plan order, each with its blocks in plan order; a round that did not complete on its
 * worker makes the report `error`, with the trials of the rounds that did.
 */
import { describe, expect, it } from 'vitest';
import type { QueueClient, QueuedRequest } from '../../../../src/arena/queue/queue.js';
import type { QueuedTrialRound } from '../../../../src/arena/queue/requests.js';
import type { TrialRoundResult } from '../../../../src/arena/trials/block.js';
import { runTrialsOnQueue } from '../../../../src/arena/trials/on-queue.js';
import { armsFor, planBlocks } from '../../../../src/arena/trials/plan.js';
import { createRandom } from '../../../../src/shared/random.js';
import { standInTarget } from './stand-in.js';

/** a queue whose workers answer each round at once: every trial passes, except rounds listed in `failing` */
function instantWorkers(failing: number[] = []): QueueClient & { submitted: QueuedRequest[] } {
  const submitted: QueuedRequest[] = [];
  const answer = (request: QueuedRequest): Promise<unknown> => {
    const r = request as QueuedTrialRound;
    if (failing.includes(r.round)) return Promise.reject(new Error('the target did not start'));
    const result: TrialRoundResult = {
      status: 'passed',
      trials: r.blocks.flatMap((b) =>
        b.tasks.map((task) => ({
          id: `r${b.round}.${b.arm.name}.${task}`,
          trace_id: 't',
          task,
          arm: b.arm.name,
          round: b.round,
          started_ms: 0,
          ended_ms: 1,
          passed: true,
        })),
      ),
      faults: { applied: 0, failed: 0 },
      calls: null,
      dropped: null,
      unattributed_markers: null,
    };
    return Promise.resolve(result);
  };
  return {
    submitted,
    async submit(_key, request) {
      submitted.push(request);
      return { result: answer(request) };
    },
    async run(key, request) {
      return (await this.submit(key, request)).result;
    },
    async close() {},
  };
}

const tasks = [{ id: 'a' }, { id: 'b' }];

describe('trials on workers', () => {
  it('queues each round once, in order, with its blocks as the local plan orders them', async () => {
    const client = instantWorkers();
    const { target } = standInTarget(tasks, { passes: () => true }, { withLedger: false });
    const report = await runTrialsOnQueue(target, { n: 3, ks: [1, 2], seed: 9, client, ref: { file: 't.yaml' } });
    expect(report.status).toBe('passed');
    expect(report.trials.tasks.map((t) => [t.id, t.clean.n, t.clean.successes])).toEqual([
      ['a', 3, 3],
      ['b', 3, 3],
    ]);
    const rounds = client.submitted as QueuedTrialRound[];
    expect(rounds.map((r) => r.round)).toEqual([0, 1, 2]);
    const plan = planBlocks(createRandom(9).fork('trials.plan'), 3, armsFor(false, []), ['a', 'b']);
    expect(rounds.flatMap((r) => r.blocks)).toEqual(plan);
    expect(rounds[0]).toMatchObject({ kind: 'trial', seed: 9, target: { file: 't.yaml' } });
  });

  it('a round its worker could not run: status error naming it, the other rounds’ trials kept', async () => {
    const { target } = standInTarget(tasks, { passes: () => true }, { withLedger: false });
    const report = await runTrialsOnQueue(target, {
      n: 3,
      ks: [1],
      seed: 9,
      client: instantWorkers([1]),
      ref: {},
    });
    expect(report.status).toBe('error');
    expect(report.error).toBe('round 2: the target did not start');
    expect(report.trials.tasks.map((t) => t.clean.n)).toEqual([2, 2]);
  });
});
