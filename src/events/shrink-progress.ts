/**
 * What a running `arena shrink --store …` leaves in its event store for the
 * web console's Shrink view (GET /arena/shrinks), and how the view's state is
 * read back:
 *
 * - stream `shrinks` indexes the jobs (`shrink.job`, one per invocation);
 * - stream `shrink:<id>` carries the events `--serve` streams, as they come:
 *   `shrink.started`, a `shrink.progress` per candidate, `shrink.smaller` per
 *   smaller failing schedule confirmed, and `shrink.finished` (the minimal faults
 *   and certificate, or why there are none), with a heartbeat while it runs.
 *
 * Any store works (SQLite file, PostgreSQL): an `arena serve` on the same store
 * reads these streams. A local shrink and one on `--workers` record the same events.
 */
import type { EventStore } from '../arena/event-store.js';
import type { CertificateEntry } from '../arena/shrink/shrink.js';
import type { ShrinkProgress } from '../arena/shrink/types.js';
import { createJobLog, isSilent, readJobStreams, type JobEvent } from './job-log.js';
import type { ShrinkJob, ShrinkPhaseRuns } from './shrink-job.js';

const SHRINK_STREAMS = { index: 'shrinks', prefix: 'shrink:', kind: 'shrink' };

export interface ShrinkRecorder {
  readonly id: string;
  /** one of the shrink's events (`shrink.started`, …), with the data `--serve` streams */
  publish(name: string, data: Record<string, unknown>): void;
  /** resolves when everything recorded so far is written (or failed to be) */
  flush(): Promise<void>;
}

/** appends in order, in the background: recording progress never slows or fails the shrink itself */
export function createShrinkRecorder(
  store: Pick<EventStore, 'append'>,
  options: { id?: string; heartbeatMs?: number } = {},
): ShrinkRecorder {
  const log = createJobLog(store, SHRINK_STREAMS, options);
  let begun = false;
  return {
    id: log.id,
    publish(name, data) {
      // indexed by its first event, so a job that fails before it starts is still seen failing
      if (!begun) log.begin();
      begun = true;
      log.record(name, data);
      if (name === 'shrink.finished') log.end();
    },
    flush: () => log.flush(),
  };
}

interface StartedData {
  source?: string;
  target?: string;
  seed?: number;
  search?: string;
  signature?: ShrinkJob['signature'];
  original_faults?: number;
}

interface FinishedData {
  status?: string;
  runs?: number;
  faults?: string[];
  method?: string;
  candidates?: number;
  runs_by_phase?: Record<string, ShrinkPhaseRuns>;
  certificate?: CertificateEntry[];
  message?: string;
}

const ENDED: ReadonlyArray<ShrinkJob['status']> = ['shrunk', 'not_reproduced', 'interrupted', 'error'];

/** one job from its stream's events */
export function foldShrinkJob(id: string, events: readonly JobEvent[], now: number): ShrinkJob {
  const at = events[0]?.at ?? new Date(now).toISOString();
  const job: ShrinkJob = {
    id,
    status: 'running',
    original_faults: 0,
    size: 0,
    faults: [],
    candidates: 0,
    runs: 0,
    runs_by_phase: {},
    started_at: at,
    updated_at: at,
  };
  // the candidate being judged: the runs spent from its progress event on are its phase's
  let judging: { phase: string; runs: number } | undefined;
  const spent = (runs: unknown) => {
    if (typeof runs !== 'number') return;
    job.runs = Math.max(job.runs, runs);
    if (!judging) return;
    job.runs_by_phase[judging.phase]!.runs += Math.max(0, runs - judging.runs);
    judging.runs = Math.max(judging.runs, runs);
  };
  for (const e of events) {
    if (e.type === 'shrink.heartbeat') continue;
    job.updated_at = e.at;
    if (e.type === 'shrink.started') {
      const d = e.data as StartedData;
      for (const key of ['source', 'target', 'seed', 'search', 'signature'] as const)
        if (d[key] !== undefined) Object.assign(job, { [key]: d[key] });
      job.original_faults = d.original_faults ?? 0;
      job.size = job.original_faults;
    } else if (e.type === 'shrink.progress') {
      const p = e.data as ShrinkProgress;
      spent(p.runs);
      job.phase = p.phase;
      job.candidates = p.candidates;
      job.size = p.size;
      if (p.trying) {
        job.trying = p.trying;
        const phase = (job.runs_by_phase[p.phase] ??= { runs: 0, candidates: 0 });
        phase.candidates++;
        judging = { phase: p.phase, runs: p.runs };
      } else {
        delete job.trying;
        judging = undefined;
      }
    } else if (e.type === 'shrink.smaller') {
      const d = e.data as { size: number; faults: string[]; runs?: number };
      spent(d.runs);
      job.size = d.size;
      job.faults = d.faults;
    } else if (e.type === 'shrink.finished') {
      const d = e.data as FinishedData;
      spent(d.runs);
      judging = undefined;
      delete job.trying;
      job.status = ENDED.includes(d.status as ShrinkJob['status']) ? (d.status as ShrinkJob['status']) : 'error';
      if (d.message !== undefined) job.message = d.message;
      if (job.status === 'shrunk') {
        // the command's own figures, as its --json printed them
        if (d.faults) {
          job.minimal_faults = d.faults;
          job.faults = d.faults;
          job.size = d.faults.length;
        }
        if (d.method !== undefined) job.method = d.method;
        if (d.candidates !== undefined) job.candidates = d.candidates;
        if (d.runs_by_phase) job.runs_by_phase = d.runs_by_phase;
        if (d.certificate) job.certificate = d.certificate;
      }
    }
  }
  // no last word, and no heartbeat for a while: none will come
  if (job.status === 'running' && isSilent(events, now)) job.status = 'abandoned';
  return job;
}

/** the `limit` most recent shrink jobs in the store, newest first */
export async function readShrinkJobs(store: EventStore, limit: number, now = Date.now()): Promise<ShrinkJob[]> {
  const jobs = await readJobStreams(store, SHRINK_STREAMS, limit);
  return jobs.map(({ id, events }) => foldShrinkJob(id, events, now));
}
