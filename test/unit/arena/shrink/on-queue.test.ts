/**
 * The runs of a shrink candidate on workers (src/arena/shrink/on-queue.ts): started `width` at a time,
 * handed to the sequential test in the order they were started whatever order they finish in, so the
 * test decides as it would on the same verdicts locally; a refusal is bad input, a failed run unjudged.
 */
import { describe, expect, it } from 'vitest';
import type { QueueClient, QueuedRequest } from '../../../../src/arena/queue/queue.js';
import type { ScenarioReport } from '../../../../src/arena/report.js';
import { queueRunner } from '../../../../src/arena/shrink/on-queue.js';
import { sequentialJudge } from '../../../../src/arena/shrink/sequential.js';
import type { Schedule } from '../../../../src/arena/shrink/types.js';
import { isArenaError } from '../../../../src/shared/errors.js';

const signature = { failures: ['expectation:slow-3'], families: ['kill_agent'] };
const failing = { status: 'failed', results: [{ label: 'slow-3', met: false }] } as unknown as ScenarioReport;
const passing = { status: 'passed', results: [{ label: 'slow-3', met: true }] } as unknown as ScenarioReport;
const schedule = (...ids: number[]): Schedule => ({
  faults: ids.map((id) => ({ id, label: `f${id}`, type: 'kill_agent', target_id: 'agent-1', at_ms: id * 100 })),
  cooldown_ms: 1000,
});

/** a queue whose n-th run (in start order) answers `answers[n]`, later runs sooner */
function scriptedClient(answers: Array<unknown | Error>): QueueClient & { requests: QueuedRequest[] } {
  const requests: QueuedRequest[] = [];
  return {
    requests,
    async run(_key, request) {
      const n = requests.push(request) - 1;
      await new Promise((r) => setTimeout(r, 5 * (answers.length - n)));
      const a = answers[n];
      if (a instanceof Error) throw a;
      return a;
    },
    async submit() {
      throw new Error('not used by shrink');
    },
    async close() {},
  };
}

describe('shrink candidates on workers', () => {
  it('uses the runs in the order they started though later ones finish first; the test decides as locally', async () => {
    // pass, fail, fail, fail: the runs finish in reverse order
    const client = scriptedClient([{ report: passing }, { report: failing }, { report: failing }, { report: failing }]);
    const runner = queueRunner({ name: 'n', seed: 3, signature, client, target: { file: 't.yaml' }, width: 2 });
    const seen: string[] = [];
    const judge = sequentialJudge(async (s) => {
      const v = await runner(s);
      seen.push(v);
      return v;
    });
    const j = await judge(schedule(1, 2));
    expect(seen.slice(0, 2)).toEqual(['pass', 'fail']);
    // the same sequence of verdicts judged one run at a time
    const local = ['pass', 'fail', 'fail', 'fail'] as const;
    let i = 0;
    const expected = await sequentialJudge(async () => local[i++]!)(schedule(1, 2));
    expect(j).toEqual(expected);
    expect(judge.runsSpent()).toBe(i);
    expect(runner.runsStarted()).toBe(Math.ceil(i / 2) * 2);
    expect(client.requests[0]).toMatchObject({ kind: 'shrink', seed: 3, target: { file: 't.yaml' } });
  });

  it('a run not needed by its candidate is used when the same candidate is asked for again', async () => {
    const client = scriptedClient([{ report: failing }, { report: passing }, { report: failing }]);
    const runner = queueRunner({ name: 'n', seed: 3, signature, client, target: {}, width: 2 });
    expect(await runner(schedule(1))).toBe('fail');
    expect(runner.runsStarted()).toBe(2);
    expect(await runner(schedule(1))).toBe('pass');
    expect(runner.runsStarted()).toBe(2);
    expect(await runner(schedule(2))).toBe('fail');
    expect(runner.runsStarted()).toBe(4);
  });

  it('a run its worker failed (the target did not start) is unjudged; a candidate the target refused is bad input', async () => {
    const client = scriptedClient([
      new Error('the target did not start'),
      { refused: { message: 'no agent-9', code: 'unknown_target' } },
    ]);
    const why: Array<string | undefined> = [];
    const runner = queueRunner({
      name: 'n',
      seed: 3,
      signature,
      client,
      target: {},
      width: 2,
      onRun: (_r, _v, reason) => why.push(reason),
    });
    expect(await runner(schedule(1))).toBe('unjudged');
    expect(why[0]).toContain('the target did not start');
    const refused = await runner(schedule(1)).catch((err: unknown) => err);
    expect(isArenaError(refused, 'unknown_target')).toBe(true);
    expect((refused as Error & { exitCode: number }).exitCode).toBe(2);
  });
});
