/**
 * The run queue on PostgreSQL (table arena_runs, schema v3; its `kind` column v5):
 * regress arm runs, trial blocks and shrink candidate runs (src/arena/queue/queue.ts).
 *
 * - `claim` takes the oldest run that is queued, or running with a lapsed
 *   lease (its worker died), with FOR UPDATE SKIP LOCKED: any number of
 *   workers take different runs without waiting on one another.
 * - Each take increments `attempts` (never decremented: it is the fencing
 *   token); renewals, the score and a failure are written only
 *   `WHERE attempts = <this take>`, so a worker that lost its run (lease
 *   lapsed, run taken again) can never write a second score.
 * - A worker takes only the kinds it executes (`kind`): rows from before
 *   kinds existed are regress runs.
 * - A run whose lease lapsed MAX_LAPSES times is failed rather than taken
 *   again: something kills every worker that tries it.
 */
import {
  RUN_KINDS,
  withKind,
  type ClaimedRun,
  type QueuedRequest,
  type RunKind,
  type QueueClient,
  type RunOutcome,
  type RunQueue,
} from '../arena/queue/queue.js';
import { UsageError } from '../shared/errors.js';
import { storeKind } from './store-spec.js';
import type { RegressionArena } from '../arena/regression/types.js';
import type { PostgresEventStore } from './postgres.js';
import { type RegressRecorder, withdrawAbandonedRuns } from './regress-progress.js';

export const MAX_LAPSES = 3;

export class PostgresRunQueue implements RunQueue {
  constructor(private readonly store: PostgresEventStore) {}

  async enqueue(batch: string, key: string, request: QueuedRequest): Promise<void> {
    await this.store.query(
      'INSERT INTO arena_runs (batch, run_key, kind, request) VALUES ($1, $2, $3, $4) ON CONFLICT (batch, run_key) DO NOTHING',
      [batch, key, request.kind, JSON.stringify(request)],
    );
  }

  async outcomes(batch: string, keys: readonly string[]): Promise<RunOutcome[]> {
    // runs whose workers kept dying are failed here, where someone is waiting for them
    await this.store.query(
      `UPDATE arena_runs SET state = 'failed', error = 'its worker stopped without a score (lease lapsed) ' || (lapses + 1) || ' times', finished_at = now()
       WHERE batch = $1 AND state = 'running' AND lease_until < now() AND lapses + 1 >= $2`,
      [batch, MAX_LAPSES],
    );
    const rows = await this.store.query<{
      run_key: string;
      state: string;
      result: string | null;
      error: string | null;
    }>(
      "SELECT run_key, state, result, error FROM arena_runs WHERE batch = $1 AND run_key = ANY($2::text[]) AND state IN ('done', 'failed', 'cancelled')",
      [batch, [...keys]],
    );
    return rows.map((r) =>
      r.state === 'done'
        ? { key: r.run_key, state: 'done', result: JSON.parse(r.result!) as unknown }
        : // a run cancelled while still awaited was withdrawn from an abandoned job (this coordinator stalled)
          {
            key: r.run_key,
            state: 'failed',
            error: r.error ?? (r.state === 'cancelled' ? 'withdrawn' : 'unknown error'),
          },
    );
  }

  async cancel(batch: string): Promise<void> {
    await this.store.query(
      "UPDATE arena_runs SET state = 'cancelled', finished_at = now() WHERE batch = $1 AND state = 'queued'",
      [batch],
    );
  }

  async claim(worker: string, leaseMs: number, kinds: readonly RunKind[] = RUN_KINDS): Promise<ClaimedRun | undefined> {
    await withdrawAbandonedRuns(this.store);
    const rows = await this.store.query<{ id: string; attempts: number; request: string }>(
      `UPDATE arena_runs SET state = 'running', worker = $1, lease_until = now() + $2 * interval '1 millisecond',
         attempts = attempts + 1, lapses = lapses + (state = 'running')::int
       WHERE id = (
         SELECT id FROM arena_runs
         WHERE (state = 'queued' OR (state = 'running' AND lease_until < now() AND lapses + 1 < $3))
           AND kind = ANY($4::text[])
         ORDER BY id
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
       RETURNING id, attempts, request`,
      [worker, leaseMs, MAX_LAPSES, [...kinds]],
    );
    const row = rows[0];
    return row ? { id: String(row.id), attempt: row.attempts, request: withKind(JSON.parse(row.request)) } : undefined;
  }

  async renew(run: ClaimedRun, worker: string, leaseMs: number): Promise<boolean> {
    await withdrawAbandonedRuns(this.store);
    const rows = await this.store.query(
      `UPDATE arena_runs SET lease_until = now() + $3 * interval '1 millisecond', worker = $4
       WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING id`,
      [run.id, run.attempt, leaseMs, worker],
    );
    return rows.length === 1;
  }

  async complete(run: ClaimedRun, result: unknown): Promise<boolean> {
    const rows = await this.store.query(
      `UPDATE arena_runs SET state = 'done', result = $3, lease_until = NULL, finished_at = now()
       WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING id`,
      [run.id, run.attempt, JSON.stringify(result)],
    );
    return rows.length === 1;
  }

  async fail(run: ClaimedRun, error: string): Promise<boolean> {
    const rows = await this.store.query(
      `UPDATE arena_runs SET state = 'failed', error = $3, lease_until = NULL, finished_at = now()
       WHERE id = $1 AND attempts = $2 AND state = 'running' RETURNING id`,
      [run.id, run.attempt, error],
    );
    return rows.length === 1;
  }

  async release(run: ClaimedRun): Promise<void> {
    await this.store.query(
      "UPDATE arena_runs SET state = 'queued', worker = NULL, lease_until = NULL WHERE id = $1 AND attempts = $2 AND state = 'running'",
      [run.id, run.attempt],
    );
  }
}

/**
 * `regress --workers postgres://…`: a RegressionArena whose runs go on the
 * queue in that database, for `arena worker` processes to execute, and a
 * recorder of the regression's progress there for the web console
 * (regress-progress.ts). `close` withdraws runs nobody took (an interrupted
 * regress), waits for the progress to be written and closes the pool.
 */
export async function openQueueArena(
  url: string,
  batch: string,
): Promise<{ arena: RegressionArena; progress: RegressRecorder; location: string; close(): Promise<void> }> {
  const { createQueueArena } = await import('../arena/regression/queue.js');
  const { createRegressRecorder } = await import('./regress-progress.js');
  const store = await openReadyStore(url);
  const arena = createQueueArena({ queue: new PostgresRunQueue(store), batch });
  const progress = createRegressRecorder(store, batch);
  return {
    arena,
    progress,
    location: store.location,
    async close() {
      try {
        await arena.close();
      } finally {
        await progress.flush();
        await store.close();
      }
    },
  };
}

/** a small pool on the queue's database, its schema checked; closed again when the database does not answer */
async function openReadyStore(url: string): Promise<PostgresEventStore> {
  const { PostgresEventStore } = await import('./postgres.js');
  const store = new PostgresEventStore({ url, poolSize: 4 });
  try {
    await store.ready();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** `--workers URL` of trials and shrink: checked before anything starts */
export function assertWorkersUrl(url: string): void {
  if (storeKind(url) !== 'postgres')
    throw new UsageError(
      `--workers takes a postgres:// URL (the database arena worker processes take runs from), got ${JSON.stringify(url)}`,
      { code: 'invalid_store' },
    );
}

/**
 * `trials --workers` and `shrink --workers`: a client of the queue in that database (batch `batch`);
 * `close` withdraws the runs nobody took (an interrupted command) and closes the pool.
 */
export async function openQueueClient(
  url: string,
  batch: string,
): Promise<{ client: QueueClient; location: string; close(): Promise<void> }> {
  assertWorkersUrl(url);
  const { createQueueClient } = await import('../arena/queue/queue.js');
  const store = await openReadyStore(url);
  const client = createQueueClient({ queue: new PostgresRunQueue(store), batch });
  return {
    client,
    location: store.location,
    async close() {
      try {
        await client.close();
      } finally {
        await store.close();
      }
    },
  };
}
