/**
 * Regression runs on the run queue (../queue/queue.ts). `createQueueArena` is
 * a RegressionArena whose runs are executed by workers: the tester above it is
 * unchanged, so regress decides exactly as it does locally (same seeds, same
 * pairs, same sequential looks), only the runs happen elsewhere.
 */
import { createQueueClient, type QueueClientOptions } from '../queue/queue.js';
import type { ScoreReport } from '../report.js';
import type { ArmRunRequest, RegressionArena } from './types.js';

export function runKey(request: Pick<ArmRunRequest, 'arm' | 'run'>): string {
  return `${request.arm}:${request.run}`;
}

/** a RegressionArena that enqueues each run and waits for a worker's score */
export function createQueueArena(
  options: Omit<QueueClientOptions, 'failedCode'>,
): RegressionArena & { close(): Promise<void> } {
  const client = createQueueClient({ ...options, failedCode: 'regression_run_failed' });
  return {
    async runArm(request: ArmRunRequest): Promise<ScoreReport> {
      const { signal, ...queued } = request;
      return (await client.run(runKey(request), { kind: 'regress', ...queued }, signal)) as ScoreReport;
    },
    close: () => client.close(),
  };
}
