/**
 * Survival against a fresh target: starts it, runs, and always reverts and
 * stops it (../run/on-target.ts). Bad options fail before the target starts.
 */
import type { Target } from '../providers.js';
import type { SurvivalReport } from '../report.js';
import { runOnTarget } from '../run/on-target.js';
import { resolveSurvivalConfig, type SurvivalOptions } from './run.js';
import { assertSupported, unsupportedProblems } from '../support.js';
import type { ActionType } from '../action.js';

export async function runSurvivalOnTarget(target: Target, options: SurvivalOptions): Promise<SurvivalReport> {
  const config = resolveSurvivalConfig(options);
  let kinds: ActionType[] | undefined;
  return runOnTarget(target, options, {
    check() {
      if (options.actions !== undefined || options.timeline) {
        assertSupported(target, config.kinds, 'survival');
        return;
      }
      // the default mix: every fault this target can apply, said once
      const refused = unsupportedProblems(target, config.kinds);
      if (refused.length > 0) {
        kinds = config.kinds.filter((k) => target.unsupportedFaults()[k] === undefined);
        options.onNotice?.(
          `survival on ${target.name}: leaving out faults it cannot apply (${refused.map((p) => p.split(':')[0]).join(', ')})`,
        );
      }
    },
    run: (service, strategy) =>
      service.runSurvival({
        ...options,
        strategy,
        ...(kinds ? { actions: kinds } : {}),
        ...(target.calls ? { calls: target.calls } : {}),
        seed: config.seed,
      }),
  });
}
