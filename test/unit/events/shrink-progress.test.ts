/**
 * The Shrink view's state from a job's events: the candidate being tried, the smallest failing set so
 * far, runs per phase counted from the progress events while it runs, the command's own figures and
 * certificate once shrunk, how a job that stopped says why, and a job gone silent shown abandoned.
 */
import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { createShrinkRecorder, foldShrinkJob, readShrinkJobs } from '../../../src/events/shrink-progress.js';

const started = {
  original_faults: 6,
  signature: { failures: ['expectation:slow-3'], families: ['kill', 'slow'] },
  search: 'quickxplain',
  seed: 11,
  source: 'report.json',
  target: 'embedded runtime',
};
const all = ['slow-1', 'kill-3', 'pause-2', 'resume-2', 'slow-2', 'slow-3'];
const certificate = [
  { fault: 'kill-3', fail_rate_without: 0, runs: 3, interval: [0, 0.56] },
  { fault: 'slow-3', fail_rate_without: 0, runs: 3, interval: [0, 0.56] },
];

/** a recorded job: reproduced in 3 runs, one search candidate of 4 faults failing in 3 more, one passing in 2 */
function recordRunning(store: MemoryEventStore, id: string) {
  const recorder = createShrinkRecorder(store, { id, heartbeatMs: 60_000 });
  recorder.publish('shrink.started', started);
  recorder.publish('shrink.progress', { phase: 'reproduce', candidates: 1, size: 6, runs: 0, trying: all });
  recorder.publish('shrink.smaller', { size: 6, of: 6, faults: all, runs: 3 });
  recorder.publish('shrink.progress', {
    phase: 'search',
    candidates: 2,
    size: 6,
    runs: 3,
    trying: ['kill-3', 'pause-2', 'resume-2', 'slow-3'],
  });
  recorder.publish('shrink.smaller', { size: 4, of: 6, faults: ['kill-3', 'pause-2', 'resume-2', 'slow-3'], runs: 6 });
  recorder.publish('shrink.progress', { phase: 'search', candidates: 3, size: 4, runs: 6, trying: ['kill-3'] });
  return recorder;
}

describe('shrink progress', () => {
  it('records a running shrink and reads back the candidate tried, the smallest failing set and runs per phase', async () => {
    const store = new MemoryEventStore();
    const recorder = recordRunning(store, 'job1');
    await recorder.flush();
    const [job] = await readShrinkJobs(store, 5);
    expect(job).toMatchObject({
      id: 'job1',
      status: 'running',
      source: 'report.json',
      target: 'embedded runtime',
      seed: 11,
      search: 'quickxplain',
      signature: started.signature,
      original_faults: 6,
      size: 4,
      faults: ['kill-3', 'pause-2', 'resume-2', 'slow-3'],
      candidates: 3,
      runs: 6,
      phase: 'search',
      trying: ['kill-3'],
    });
    // the third candidate's runs are not spent yet: search has 2 candidates' worth of runs so far
    expect(job!.runs_by_phase).toEqual({ reproduce: { runs: 3, candidates: 1 }, search: { runs: 3, candidates: 2 } });
    expect(job!.minimal_faults).toBeUndefined();
    expect(job!.certificate).toBeUndefined();
  });

  it('ends on the figures and the certificate the command printed once shrunk', async () => {
    const store = new MemoryEventStore();
    const recorder = recordRunning(store, 'job1');
    recorder.publish('shrink.progress', { phase: 'certificate', candidates: 9, size: 2, runs: 20 });
    const runsByPhase = {
      reproduce: { runs: 3, candidates: 1 },
      search: { runs: 11, candidates: 6 },
      compress: { runs: 0, candidates: 0 },
      certificate: { runs: 6, candidates: 2 },
    };
    recorder.publish('shrink.finished', {
      status: 'shrunk',
      original_faults: 6,
      minimal_faults: 2,
      faults: ['kill-3', 'slow-3'],
      runs: 20,
      runs_by_phase: runsByPhase,
      candidates: 9,
      method: 'quickxplain',
      certificate,
    });
    await recorder.flush();
    const [job] = await readShrinkJobs(store, 5);
    expect(job).toMatchObject({
      status: 'shrunk',
      size: 2,
      faults: ['kill-3', 'slow-3'],
      minimal_faults: ['kill-3', 'slow-3'],
      runs: 20,
      candidates: 9,
      method: 'quickxplain',
      runs_by_phase: runsByPhase,
      certificate,
    });
    expect(job!.trying).toBeUndefined();
  });

  it('says why a shrink stopped without a minimal set, keeping the smallest failing set it had', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const events = (finished: Record<string, unknown>) => [
      { type: 'shrink.started', data: started, at: at(0) },
      {
        type: 'shrink.progress',
        data: { phase: 'search', candidates: 2, size: 6, runs: 3, trying: ['kill-3'] },
        at: at(1),
      },
      { type: 'shrink.smaller', data: { size: 3, of: 6, faults: ['kill-3', 'slow-2', 'slow-3'], runs: 5 }, at: at(2) },
      { type: 'shrink.finished', data: finished, at: at(3) },
    ];
    const now = Date.parse(at(3));
    const interrupted = foldShrinkJob(
      'a',
      events({ status: 'interrupted', runs: 5, message: 'interrupted after 5 run(s)' }),
      now,
    );
    expect(interrupted).toMatchObject({
      status: 'interrupted',
      size: 3,
      faults: ['kill-3', 'slow-2', 'slow-3'],
      runs: 5,
      message: 'interrupted after 5 run(s)',
      runs_by_phase: { search: { runs: 2, candidates: 1 } },
      updated_at: at(3),
    });
    expect(interrupted.trying).toBeUndefined();
    expect(interrupted.minimal_faults).toBeUndefined();
    const notReproduced = foldShrinkJob(
      'b',
      events({ status: 'not_reproduced', runs: 12, message: 'did not reproduce' }),
      now,
    );
    expect(notReproduced).toMatchObject({ status: 'not_reproduced', runs: 12, message: 'did not reproduce' });
    // a status this reader does not know is not shown as a success
    expect(foldShrinkJob('c', events({ status: 'exploded', runs: 5 }), now).status).toBe('error');
  });

  it('shows a job silent for 30 s abandoned, and one whose heartbeat goes on running', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const iso = (ms: number) => new Date(t0 + ms).toISOString();
    const base = [
      { type: 'shrink.started', data: started, at: iso(0) },
      {
        type: 'shrink.progress',
        data: { phase: 'search', candidates: 2, size: 6, runs: 3, trying: ['x'] },
        at: iso(1),
      },
    ];
    expect(foldShrinkJob('a', base, t0 + 31_000).status).toBe('abandoned');
    const beating = [...base, { type: 'shrink.heartbeat', data: {}, at: iso(30_000) }];
    const job = foldShrinkJob('a', beating, t0 + 31_000);
    expect(job.status).toBe('running');
    // a heartbeat is not progress
    expect(job.updated_at).toBe(iso(1));
  });

  it('lists the newest jobs first, as many as asked, and indexes a job that fails before it starts', async () => {
    const store = new MemoryEventStore();
    for (const id of ['old', 'mid']) await recordRunning(store, id).flush();
    const failing = createShrinkRecorder(store, { id: 'new', heartbeatMs: 60_000 });
    failing.publish('shrink.finished', { status: 'error', runs: 0, message: 'target would not start' });
    await failing.flush();
    const jobs = await readShrinkJobs(store, 2);
    expect(jobs.map((j) => j.id)).toEqual(['new', 'mid']);
    expect(jobs[0]).toMatchObject({ status: 'error', message: 'target would not start', original_faults: 0 });
    expect(await readShrinkJobs(new MemoryEventStore(), 5)).toEqual([]);
  });
});
