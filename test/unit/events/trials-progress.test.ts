/**
 * The Trials view's state from a job's events: pass^k so far with the report's estimator (null while
 * fewer than k trials are done), the surface as the mean over tasks, the report's own figures once
 * finished, and a job gone silent shown abandoned rather than running for ever.
 */
import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { createTrialsRecorder, foldTrialsJob, readTrialsJobs } from '../../../src/events/trials-progress.js';
import type { TrialsPlan, TrialsReport } from '../../../src/arena/trials/report.js';
import { passK } from '../../../src/arena/trials/passk.js';

const plan: TrialsPlan = {
  n: 4,
  ks: [1, 2, 4],
  seed: 3,
  scenario: 'quiet',
  tasks: ['a', 'b'],
  arms: [{ name: 'clean' }, { name: 'intensity=0.3', intensity: 0.3 }],
  total: 16,
};

const trial = (task: string, arm: string, round: number, passed: boolean) => ({
  id: `r${round}.${arm}.${task}`,
  trace_id: 'x',
  task,
  arm,
  round,
  passed,
  started_ms: 0,
  ended_ms: 1,
});

describe('trials progress', () => {
  it('records a job and reads it back with pass^k so far, per task, arm and intensity', async () => {
    const store = new MemoryEventStore();
    const recorder = createTrialsRecorder(store, { id: 'job1', heartbeatMs: 60_000 });
    recorder.started(plan);
    recorder.trial(trial('a', 'intensity=0.3', 0, true));
    recorder.trial(trial('a', 'intensity=0.3', 1, false));
    recorder.trial(trial('a', 'intensity=0.3', 2, true));
    recorder.trial(trial('b', 'intensity=0.3', 0, true));
    recorder.trial(trial('b', 'intensity=0.3', 1, true));
    recorder.failed(new Error('target lost'));
    await recorder.flush();
    const [job] = await readTrialsJobs(store, 5);
    expect(job).toMatchObject({ id: 'job1', status: 'failed', error: 'target lost', done: 5, total: 16 });
    const a = job!.tasks.find((t) => t.id === 'a')!.arms.find((x) => x.arm === 'intensity=0.3')!;
    expect(a).toMatchObject({ done: 3, n: 4, successes: 2, intensity: 0.3 });
    expect(a.pass_k).toEqual({ 1: passK(3, 2, 1), 2: passK(3, 2, 2), 4: null });
    // the surface point is the mean over tasks, and only where every task has k trials
    expect(job!.surface).toEqual([
      {
        intensity: 0.3,
        done: 5,
        total: 8,
        pass_k: { 1: (passK(3, 2, 1)! + 1) / 2, 2: (passK(3, 2, 2)! + 1) / 2, 4: null },
      },
    ]);
    expect(job!.tasks[0]!.arms[0]).toMatchObject({ arm: 'clean', done: 0, pass_k: { 1: null, 2: null, 4: null } });
  });

  it('a finished job shows the report’s figures; a silent one is abandoned', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const stats = (n: number, c: number) => ({ n, successes: c, pass_k: { 1: c / n }, pass_k_interval: {} });
    const report = {
      schema_version: 1,
      status: 'passed',
      trials: {
        tasks: [{ id: 'a', clean: stats(4, 4), faulted: null }],
        surface: [{ intensity: 0.3, pass_k: { 1: 0.25 }, tasks: [{ id: 'a', ...stats(4, 1) }] }],
      },
    } as unknown as TrialsReport;
    const onePlan = { ...plan, ks: [1], tasks: ['a'], total: 8 };
    const finished = foldTrialsJob(
      'j',
      [
        { type: 'trials.started', data: onePlan, at },
        { type: 'trials.finished', data: report, at },
      ],
      Date.parse(at) + 3_600_000,
    );
    expect(finished.status).toBe('finished');
    expect(finished.tasks[0]!.arms.map((x) => [x.arm, x.done, x.pass_k[1]])).toEqual([
      ['clean', 4, 1],
      ['intensity=0.3', 4, 0.25],
    ]);
    expect(finished.surface).toEqual([{ intensity: 0.3, done: 4, total: 4, pass_k: { 1: 0.25 } }]);
    const silent = foldTrialsJob('s', [{ type: 'trials.started', data: onePlan, at }], Date.parse(at) + 31_000);
    expect(silent.status).toBe('abandoned');
    const alive = foldTrialsJob('s', [{ type: 'trials.started', data: onePlan, at }], Date.parse(at) + 1_000);
    expect(alive.status).toBe('running');
  });

  it('lists the newest job first', async () => {
    const store = new MemoryEventStore();
    for (const id of ['old', 'new']) {
      const r = createTrialsRecorder(store, { id, heartbeatMs: 60_000 });
      r.started(plan);
      r.finished({ schema_version: 1, status: 'passed', trials: { tasks: [] } } as unknown as TrialsReport);
      await r.flush();
    }
    expect((await readTrialsJobs(store, 5)).map((j) => j.id)).toEqual(['new', 'old']);
    expect((await readTrialsJobs(store, 1)).map((j) => j.id)).toEqual(['new']);
  });
});
