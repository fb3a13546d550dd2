/**
 * Survival against a fresh target: builds the injector and service, starts the
 * target, runs, and always stops it (stopping reverts every fault it still has).
 */
import type { Target } from '../providers.js';
import type { SurvivalReport } from '../report.js';
import { Injector } from '../injector.js';
import { ArenaService } from '../service.js';
import { RuntimeError, errorMessage, isArenaError } from '../../shared/errors.js';
import { resolveSurvivalConfig, type SurvivalOptions } from './run.js';
import { assertSupported, unsupportedProblems } from '../support.js';
import type { ActionType } from '../action.js';

export async function runSurvivalOnTarget(target: Target, options: SurvivalOptions): Promise<SurvivalReport> {
  // bad options fail before the target is started
  const config = resolveSurvivalConfig(options);
  const service = new ArenaService({
    injector: new Injector(target.runtime, target.dag),
    observer: target.observer,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.eventStore ? { eventStore: options.eventStore } : {}),
  });
  let kinds: ActionType[] | undefined;
  try {
    await target.start();
    if (options.actions !== undefined || options.timeline) assertSupported(target, config.kinds, 'survival');
    else {
      // the default mix: every fault this target can apply, said once
      const refused = unsupportedProblems(target, config.kinds);
      if (refused.length > 0) {
        kinds = config.kinds.filter((k) => target.unsupportedFaults()[k] === undefined);
        options.onNotice?.(`survival on ${target.name}: leaving out faults it cannot apply (${refused.map((p) => p.split(':')[0]).join(', ')})`);
      }
    }
  } catch (err) {
    await target.stop().catch(() => undefined);
    throw isArenaError(err) ? err : new RuntimeError(`the ${target.name} target did not start: ${errorMessage(err)}`, 'target_start_failed', { cause: err });
  }
  try {
    return await service.runSurvival({ strategy: (await target.describe()).strategy, ...options, ...(kinds ? { actions: kinds } : {}), seed: config.seed });
  } finally {
    await target.stop();
  }
}
