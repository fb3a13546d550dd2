/**
 * The served arena's emergency stop (DESIGN §16; `POST /arena/stop`, and `arena stop` on a serve
 * process): the scenario or survival run going on the target is stopped (its report says `stopped`),
 * and every fault still active, a run's or one applied through a fault route, is reverted, all at once.
 * The server keeps serving.
 */
import type { ActiveFault } from '../arena/providers.js';
import type { ArenaService } from '../arena/service.js';
import { StoppedError, errorMessage } from '../shared/errors.js';
import type { ScenariosPort } from './scenarios.js';
import type { SurvivalPort } from './survival.js';

export interface EmergencyStopResult {
  /** the runs that were going, now stopped */
  stopped_runs: Array<'scenario' | 'survival'>;
  /** every fault that was active when the stop came, each now reverted */
  reverted_faults: ActiveFault[];
  /** a revert that failed, if one did (the run's own report may say more) */
  error?: string;
}

export type EmergencyStop = (why: string) => Promise<EmergencyStopResult>;

export function createEmergencyStop(deps: {
  service: ArenaService;
  survival: SurvivalPort;
  scenarios: ScenariosPort;
}): EmergencyStop {
  return async (why) => {
    const { service, survival, scenarios } = deps;
    const reason = new StoppedError(why);
    const active = await service.injector.activeFaults().catch(() => [] as ActiveFault[]);
    const stopped_runs: EmergencyStopResult['stopped_runs'] = [];
    if (survival.isRunning) stopped_runs.push('survival');
    if (scenarios.isRunning) stopped_runs.push('scenario');
    // at once: the runs are told and every fault is reverted in the same breath; the runs' own reverts follow
    const settled = await Promise.allSettled([
      survival.isRunning ? service.stopSurvival(reason) : undefined,
      scenarios.stop(reason),
      service.revertAll(),
    ]);
    // once more after the runs ended: a fault a run applied while the first revert ran is gone too
    const last = await service.revertAll().then(
      () => undefined,
      (err: unknown) => errorMessage(err),
    );
    const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    const error = last ?? (failed ? errorMessage(failed.reason) : undefined);
    return { stopped_runs, reverted_faults: active, ...(error !== undefined ? { error } : {}) };
  };
}
