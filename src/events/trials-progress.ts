/**
 * What a running `arena trials --store …` leaves in its event store for the
 * web console's Trials view (GET /arena/trials), and how the view's state is
 * read back:
 *
 * - stream `trials` indexes the jobs (`trials.job`, one per invocation);
 * - stream `trials:<id>` carries the plan (`trials.started`), every trial as it
 *   ends (`trials.trial`), a heartbeat while it runs, then the report the
 *   command printed (`trials.finished`) or why there is none (`trials.failed`).
 *
 * Any store works (SQLite file, PostgreSQL): an `arena serve` on the same store
 * reads these streams. Progress figures are computed from the trials recorded so
 * far with the report's own estimator; once the report is in, the view shows its
 * figures as they are, so they equal `--json`.
 */
import type { EventStore } from '../arena/event-store.js';
import { passK } from '../arena/trials/passk.js';
import type { ArmStats, TrialsPlan, TrialsReport } from '../arena/trials/report.js';
import type { TrialRecord } from '../arena/trials/summary.js';
import { createJobLog, isSilent, readJobStreams, type JobEvent } from './job-log.js';
import type { TrialsArmProgress, TrialsJob, TrialsSurfaceSeries } from './trials-job.js';

export const TRIALS_INDEX_STREAM = 'trials';
export const TRIALS_STREAM_PREFIX = 'trials:';

export interface TrialsRecorder {
  readonly id: string;
  started(plan: TrialsPlan): void;
  trial(trial: TrialRecord): void;
  finished(report: TrialsReport): void;
  failed(error: unknown): void;
  /** resolves when everything recorded so far is written (or failed to be) */
  flush(): Promise<void>;
}

const TRIALS_STREAMS = { index: TRIALS_INDEX_STREAM, prefix: TRIALS_STREAM_PREFIX, kind: 'trials' };

/** appends in order, in the background: recording progress never slows or fails the trials themselves */
export function createTrialsRecorder(
  store: Pick<EventStore, 'append'>,
  options: { id?: string; heartbeatMs?: number } = {},
): TrialsRecorder {
  const log = createJobLog(store, TRIALS_STREAMS, options);
  return {
    id: log.id,
    started(plan) {
      log.begin();
      log.record('trials.started', plan);
    },
    trial(t) {
      log.record('trials.trial', {
        id: t.id,
        task: t.task,
        arm: t.arm,
        round: t.round,
        passed: t.passed,
        ...(t.detail !== undefined ? { detail: t.detail } : {}),
      });
    },
    finished(report) {
      log.end();
      log.record('trials.finished', report);
    },
    failed(error) {
      log.end();
      log.record('trials.failed', { error: error instanceof Error ? error.message : String(error) });
    },
    flush: () => log.flush(),
  };
}

/** pass^k per k over `done` trials with `successes`; null where fewer than k are done */
function passKSoFar(done: number, successes: number, ks: readonly number[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const k of ks) out[k] = done >= k ? (passK(done, successes, k) ?? null) : null;
  return out;
}

/** per k, the mean over the tables, null unless every table has it */
function meanSoFar(tables: ReadonlyArray<Record<string, number | null>>, ks: readonly number[]) {
  const out: Record<string, number | null> = {};
  for (const k of ks) {
    const values = tables.map((t) => t[k]);
    out[k] =
      values.length > 0 && values.every((v) => typeof v === 'number')
        ? (values as number[]).reduce((a, b) => a + b, 0) / values.length
        : null;
  }
  return out;
}

function fromStats(arm: string, intensity: number | undefined, stats: ArmStats, n: number): TrialsArmProgress {
  return {
    arm,
    ...(intensity !== undefined ? { intensity } : {}),
    done: stats.n,
    n,
    successes: stats.successes,
    pass_k: { ...stats.pass_k },
  };
}

/** the figures of a finished job, taken from its report as `--json` printed them */
function fromReport(job: TrialsJob, plan: TrialsPlan, report: TrialsReport): void {
  const body = report.trials;
  job.tasks = body.tasks.map((task) => {
    const arms = [fromStats('clean', undefined, task.clean, plan.n)];
    if (task.faulted) arms.push(fromStats('faulted', undefined, task.faulted, plan.n));
    for (const point of body.surface ?? []) {
      const stats = point.tasks.find((t) => t.id === task.id);
      if (stats) arms.push(fromStats(`intensity=${point.intensity}`, point.intensity, stats, plan.n));
    }
    return { id: task.id, arms };
  });
  job.surface = (body.surface ?? []).map((point) => ({
    intensity: point.intensity,
    done: point.tasks.reduce((s, t) => s + t.n, 0),
    total: plan.n * point.tasks.length,
    pass_k: { ...point.pass_k },
  }));
}

/** one job from its stream's events */
export function foldTrialsJob(id: string, events: readonly JobEvent[], now: number) {
  const job: TrialsJob = {
    id,
    status: 'running',
    done: 0,
    total: 0,
    tasks: [],
    surface: [],
    started_at: events[0]?.at ?? new Date(now).toISOString(),
    updated_at: events[0]?.at ?? new Date(now).toISOString(),
  };
  const counts = new Map<string, { done: number; successes: number }>();
  for (const e of events) {
    if (e.type === 'trials.heartbeat') continue;
    job.updated_at = e.at;
    if (e.type === 'trials.started') {
      job.plan = e.data as TrialsPlan;
      job.total = job.plan.total;
    } else if (e.type === 'trials.trial') {
      const t = e.data as NonNullable<TrialsJob['last']>;
      const key = `${t.task}\u0000${t.arm}`;
      const c = counts.get(key) ?? { done: 0, successes: 0 };
      c.done++;
      if (t.passed) c.successes++;
      counts.set(key, c);
      job.done++;
      job.last = t;
    } else if (e.type === 'trials.finished') {
      job.status = 'finished';
      job.report = e.data as TrialsReport;
    } else if (e.type === 'trials.failed') {
      job.status = 'failed';
      job.error = String((e.data as { error?: unknown }).error);
    }
  }
  const plan = job.plan;
  if (plan) {
    job.tasks = plan.tasks.map((task) => ({
      id: task,
      arms: plan.arms.map((arm) => {
        const c = counts.get(`${task}\u0000${arm.name}`) ?? { done: 0, successes: 0 };
        return {
          arm: arm.name,
          ...(arm.intensity !== undefined ? { intensity: arm.intensity } : {}),
          done: c.done,
          n: plan.n,
          successes: c.successes,
          pass_k: passKSoFar(c.done, c.successes, plan.ks),
        };
      }),
    }));
    job.surface = plan.arms
      .filter((arm) => arm.intensity !== undefined)
      .map((arm): TrialsSurfaceSeries => {
        const mine = job.tasks.map((t) => t.arms.find((a) => a.arm === arm.name)!);
        return {
          intensity: arm.intensity!,
          done: mine.reduce((s, a) => s + a.done, 0),
          total: plan.n * plan.tasks.length,
          pass_k: meanSoFar(
            mine.map((a) => a.pass_k),
            plan.ks,
          ),
        };
      });
    if (job.report) fromReport(job, plan, job.report);
  }
  // no report, and no word from the trials for a while: none will come
  if (job.status === 'running' && isSilent(events, now)) job.status = 'abandoned';
  return job;
}

/** the `limit` most recent trials jobs in the store, newest first */
export async function readTrialsJobs(store: EventStore, limit: number, now = Date.now()): Promise<TrialsJob[]> {
  const jobs = await readJobStreams(store, TRIALS_STREAMS, limit);
  return jobs.map(({ id, events }) => foldTrialsJob(id, events, now));
}
