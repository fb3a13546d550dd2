/**
 * What a `regress --workers` run leaves in its PostgreSQL database for the
 * web console (GET /arena/regress), besides the runs on the queue:
 *
 * - the queue itself (arena_runs) says, per arm, how many runs are queued,
 *   running on a worker, done or failed, and which workers took them;
 * - stream `regress:<batch>` in arena_events carries what only regress knows:
 *   the plan (`regress.started`), each score as regress counted it
 *   (`regress.run`), each sequential look (`regress.look`) and the verdict
 *   (`regress.finished`) or why there is none (`regress.failed`).
 *
 * The console shows runs done/total per arm, the current paired estimate
 * (candidate − baseline over the complete pairs) and the look or decision.
 */
import type { PostgresEventStore } from './postgres.js';
import type { RegressionEvent, SequentialLookRecord } from '../arena/regression/types.js';
import type { ArmProgress, RegressJob, RegressOutcome, RegressPlan } from './regress-job.js';

export const REGRESS_STREAM_PREFIX = 'regress:';
/** how often a running regress says it is alive (`regress.heartbeat`) */
export const HEARTBEAT_MS = 5_000;
/** a job unheard of this long without a verdict is `abandoned`: its coordinator died (SIGKILL, host lost) */
export const ABANDONED_AFTER_MS = 30_000;

export interface RegressRecorder {
  started(plan: RegressPlan): void;
  event(event: RegressionEvent): void;
  finished(outcome: RegressOutcome): void;
  failed(error: unknown): void;
  /** resolves when everything recorded so far is written (or failed to be) */
  flush(): Promise<void>;
}

/** appends in order, in the background: recording progress never slows or fails the regression itself */
export function createRegressRecorder(
  store: Pick<PostgresEventStore, 'append'>,
  batch: string,
  options: { heartbeatMs?: number } = {},
): RegressRecorder {
  const stream = REGRESS_STREAM_PREFIX + batch;
  let chain: Promise<unknown> = Promise.resolve();
  const record = (type: string, data: unknown) => {
    chain = chain.then(() => store.append(stream, [{ type, data }])).catch(() => undefined);
  };
  // from the start to the verdict: a job whose heartbeats stop is shown abandoned, not "running" for ever
  let heartbeat: NodeJS.Timeout | undefined;
  const stopHeartbeat = () => {
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = undefined;
  };
  return {
    started(plan) {
      record('regress.started', plan);
      stopHeartbeat();
      heartbeat = setInterval(() => record('regress.heartbeat', {}), options.heartbeatMs ?? HEARTBEAT_MS);
      heartbeat.unref();
    },
    event(event) {
      if (event.type === 'run')
        record('regress.run', { arm: event.arm, run: event.run, seed: event.seed, score: event.score });
      else record('regress.look', event.look);
    },
    finished: (outcome) => {
      stopHeartbeat();
      record('regress.finished', {
        decision: outcome.decision,
        difference: outcome.difference,
        p_value: outcome.p_value,
        ci: outcome.ci,
        runs_used: outcome.runs_used,
        ...(outcome.undecided_reason ? { undecided_reason: outcome.undecided_reason } : {}),
        ...(outcome.stopped ? { stopped: outcome.stopped } : {}),
        ...(outcome.interrupted ? { interrupted: true } : {}),
      });
    },
    failed: (error) => {
      stopHeartbeat();
      record('regress.failed', { error: error instanceof Error ? error.message : String(error) });
    },
    flush: async () => {
      await chain;
    },
  };
}

/**
 * Withdraws (cancels) the queued and running runs of every job whose coordinator has been silent for
 * `afterMs`: an abandoned job (its coordinator killed) whose runs nobody will ever count, or one that
 * ended without withdrawing its leftovers. Workers run this before taking a run and when renewing
 * one, so none takes such a run and one that holds it gives it up (its renewal fails). Judged by the
 * last event on `regress:<batch>` against the database's clock; a batch with no such stream (its
 * coordinator has not recorded its start yet) is left alone. SKIP LOCKED: never waits on a worker.
 */
export async function withdrawAbandonedRuns(
  store: Pick<PostgresEventStore, 'query'>,
  afterMs = ABANDONED_AFTER_MS,
): Promise<number> {
  const rows = await store.query(
    `WITH silent AS (
       SELECT b.batch FROM (SELECT DISTINCT batch FROM arena_runs WHERE state IN ('queued', 'running')) b
       WHERE (SELECT e.at FROM arena_events e WHERE e.stream_id = $1 || b.batch ORDER BY e.version DESC LIMIT 1)::timestamptz
             < now() - $2 * interval '1 millisecond')
     UPDATE arena_runs SET state = 'cancelled', error = $3, lease_until = NULL, finished_at = now()
     WHERE id IN (SELECT id FROM arena_runs WHERE state IN ('queued', 'running') AND batch IN (SELECT batch FROM silent)
                  FOR UPDATE SKIP LOCKED)
     RETURNING id`,
    [
      REGRESS_STREAM_PREFIX,
      afterMs,
      `withdrawn: its job was abandoned (no word from its coordinator for ${Math.round(afterMs / 1000)} s)`,
    ],
  );
  return rows.length;
}

const emptyArm = (): ArmProgress => ({ queued: 0, running: 0, done: 0, failed: 0, total: 0 });

/** the `limit` most recent jobs on the queue, newest first */
export async function readRegressJobs(
  store: PostgresEventStore,
  limit: number,
  /** epoch ms to judge silence by; events carry their writer's wall clock */
  now = Date.now(),
): Promise<RegressJob[]> {
  const counts = await store.query<{
    batch: string;
    arm: string;
    state: string;
    n: number;
    first: Date;
    last: Date;
    workers: string[] | null;
    newest: string;
  }>(
    // the queue carries trials and shrink runs too: only regress batches are regress jobs
    `WITH recent AS (SELECT batch, max(id) AS newest FROM arena_runs WHERE kind = 'regress' GROUP BY batch ORDER BY max(id) DESC LIMIT $1)
     SELECT r.batch, split_part(r.run_key, ':', 1) AS arm, r.state, count(*)::int AS n, min(r.created_at) AS first,
            max(COALESCE(r.finished_at, r.created_at)) AS last, array_agg(DISTINCT r.worker) FILTER (WHERE r.worker IS NOT NULL) AS workers,
            max(recent.newest)::text AS newest
     FROM arena_runs r JOIN recent USING (batch)
     GROUP BY r.batch, arm, r.state`,
    [limit],
  );
  const jobs = new Map<string, RegressJob & { newest: number }>();
  for (const row of counts) {
    let job = jobs.get(row.batch);
    if (!job) {
      job = {
        batch: row.batch,
        status: 'running',
        arms: { baseline: emptyArm(), candidate: emptyArm() },
        workers: [],
        looks: [],
        started_at: iso(row.first),
        updated_at: iso(row.last),
        newest: Number(row.newest),
      };
      jobs.set(row.batch, job);
    }
    if (iso(row.first) < job.started_at) job.started_at = iso(row.first);
    if (iso(row.last) > job.updated_at) job.updated_at = iso(row.last);
    job.workers = [...new Set([...job.workers, ...(row.workers ?? [])])].sort();
    const arm = row.arm === 'baseline' || row.arm === 'candidate' ? job.arms[row.arm] : undefined;
    if (!arm) continue;
    arm.total += row.n;
    if (row.state === 'queued' || row.state === 'running' || row.state === 'done' || row.state === 'failed')
      arm[row.state] += row.n;
  }
  if (jobs.size === 0) return [];
  const events = await store.query<{ stream_id: string; type: string; data: string; at: string }>(
    'SELECT stream_id, type, data, at FROM arena_events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, version',
    [[...jobs.keys()].map((b) => REGRESS_STREAM_PREFIX + b)],
  );
  const scores = new Map<string, { baseline: Map<number, number>; candidate: Map<number, number> }>();
  // the coordinator's last word (any event it wrote, heartbeats included)
  const heardAt = new Map<RegressJob, number>();
  for (const e of events) {
    const job = jobs.get(e.stream_id.slice(REGRESS_STREAM_PREFIX.length));
    if (!job) continue;
    heardAt.set(job, Math.max(heardAt.get(job) ?? 0, Date.parse(e.at)));
    if (e.type === 'regress.heartbeat') continue;
    const data = JSON.parse(e.data) as Record<string, unknown>;
    if (e.at > job.updated_at) job.updated_at = e.at;
    if (e.type === 'regress.started') job.plan = data as unknown as RegressPlan;
    else if (e.type === 'regress.look') job.looks.push(data as unknown as SequentialLookRecord);
    else if (e.type === 'regress.finished') {
      job.status = 'finished';
      job.outcome = data as unknown as RegressOutcome;
    } else if (e.type === 'regress.failed') {
      job.status = 'failed';
      job.error = String(data.error);
    } else if (e.type === 'regress.run' && (data.arm === 'baseline' || data.arm === 'candidate')) {
      let s = scores.get(job.batch);
      if (!s) scores.set(job.batch, (s = { baseline: new Map(), candidate: new Map() }));
      s[data.arm].set(Number(data.run), Number(data.score));
    }
  }
  for (const job of jobs.values()) {
    if (job.status !== 'running') continue;
    const heard = heardAt.get(job);
    if (heard !== undefined) job.coordinator_seen_at = new Date(heard).toISOString();
    // no verdict, and no word from its coordinator for a while: nobody will ever give it one
    if (now - (heard ?? Date.parse(job.updated_at)) > ABANDONED_AFTER_MS) job.status = 'abandoned';
  }
  for (const [batch, s] of scores) {
    const pairs = [...s.baseline]
      .filter(([run]) => s.candidate.has(run))
      .map(([run, b]) => [b, s.candidate.get(run)!] as const);
    if (pairs.length === 0) continue;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const baselineMean = mean(pairs.map((p) => p[0]));
    const candidateMean = mean(pairs.map((p) => p[1]));
    jobs.get(batch)!.estimate = {
      pairs: pairs.length,
      difference: candidateMean - baselineMean,
      baseline_mean: baselineMean,
      candidate_mean: candidateMean,
    };
  }
  return [...jobs.values()].sort((a, b) => b.newest - a.newest).map(({ newest: _, ...job }) => job);
}

function iso(d: Date | string): string {
  return d instanceof Date ? d.toISOString() : new Date(d).toISOString();
}
