/**
 * What a run (scenario or survival) needs of the arena service it runs on. ArenaService implements
 * it; it lives here, below the service, because the service owns a survival controller that runs on
 * it: importing the service class from the run modules would close an import cycle.
 */
import type { Clock } from '../../shared/clock.js';
import type { Action, Result } from '../action.js';
import type { Injector } from '../injector.js';
import type { TargetObserver } from '../providers.js';
import type { RunEventListener } from '../report.js';

export interface RunService {
  readonly injector: Injector;
  readonly observer?: TargetObserver;
  readonly clock: Clock;
  /** apply one action and record it */
  execute(action: Action): Promise<Result>;
  /** revert every fault still active */
  revertAll(): Promise<void>;
  /** told every event of every run on this service, besides the run's own listener (tracing) */
  readonly runListener?: RunEventListener | undefined;
}
