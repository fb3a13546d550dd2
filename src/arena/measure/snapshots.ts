/**
 * Periodic `snapshot` run events (agents, active faults, live score,
 * progress), shared by scenario and survival runs. Reading the target may go
 * over a network, so a snapshot still being taken makes the next tick wait
 * rather than pile up; a target that cannot answer skips that snapshot.
 */
import type { Clock, TimerHandle } from '../../shared/clock.js';
import type { Injector } from '../injector.js';
import type { RunEvent } from '../report.js';
import type { MeasurementSession } from './session.js';

/** how often runs emit a snapshot unless told otherwise */
export const DEFAULT_SNAPSHOT_INTERVAL_MS = 100;

export interface SnapshotOptions {
  clock: Clock;
  injector: Injector;
  measurement: MeasurementSession;
  everyMs: number;
  /** ms since the run started */
  rel: () => number;
  /** 0..1 */
  progress: () => number;
  emit: (event: RunEvent) => void;
}

export interface Snapshots {
  /** takes one now (after the one in flight, if any) */
  take(): Promise<void>;
  /** no more periodic snapshots; waits for the one in flight */
  stop(): Promise<void>;
}

export function startSnapshots(options: SnapshotOptions): Snapshots {
  const { clock, injector, measurement } = options;
  let timer: TimerHandle | undefined;
  let inFlight: Promise<void> | undefined;
  let stopped = false;

  const takeOne = async () => {
    try {
      const [agents, faults, live] = await Promise.all([
        injector.agents(),
        injector.activeFaults(),
        measurement.liveScore(),
      ]);
      options.emit({ type: 'snapshot', at_ms: options.rel(), agents, faults, live, progress: options.progress() });
    } catch {
      // the target may be mid-restart or unreachable; the next snapshot will do
    }
  };

  const take = async () => {
    while (inFlight) await inFlight;
    inFlight = takeOne().finally(() => {
      inFlight = undefined;
    });
    await inFlight;
  };

  const tick = () => {
    timer = undefined;
    void take().finally(() => {
      if (!stopped) timer = clock.setTimer(options.everyMs, tick);
    });
  };
  tick();

  return {
    take,
    async stop() {
      stopped = true;
      timer?.cancel();
      while (inFlight) await inFlight;
    },
  };
}
