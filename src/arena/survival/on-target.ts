/**
 * Survival against a fresh target: starts it, runs, and always reverts and
 * stops it (../run/on-target.ts). Bad options fail before the target starts.
 */
import type { Target } from '../providers.js';
import type { SurvivalReport } from '../report.js';
import { runOnTarget } from '../run/on-target.js';
import { resolveSurvivalConfig, type ResolvedSurvivalConfig, type SurvivalOptions } from './run.js';
import { assertSupported, unsupportedProblems } from '../support.js';
import type { ActionType } from '../action.js';

export async function runSurvivalOnTarget(target: Target, options: SurvivalOptions): Promise<SurvivalReport> {
  const config = resolveSurvivalConfig(options);
  let kinds: ActionType[] | undefined;
  return runOnTarget(target, options, {
    check() {
      const chosen = survivalKinds(target, options, config);
      if (chosen.leftOut.length === 0) return;
      kinds = chosen.kinds;
      options.onNotice?.(
        `survival on ${target.name}: leaving out faults it cannot apply (${chosen.leftOut.join(', ')})`,
      );
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

/**
 * The kinds a survival run on this (started) target draws from: the ones asked for, refused (UsageError)
 * when the target cannot apply one; or the default mix less what the target cannot apply. A dry run
 * plans from the same list, so it draws what the real run draws.
 */
export function survivalKinds(
  target: Target,
  options: SurvivalOptions,
  config: ResolvedSurvivalConfig,
): { kinds: ActionType[]; leftOut: string[] } {
  if (options.actions !== undefined || options.timeline) {
    assertSupported(target, config.kinds, 'survival');
    return { kinds: config.kinds, leftOut: [] };
  }
  const refused = unsupportedProblems(target, config.kinds);
  if (refused.length === 0) return { kinds: config.kinds, leftOut: [] };
  return {
    kinds: config.kinds.filter((k) => target.unsupportedFaults()[k] === undefined),
    leftOut: refused.map((p) => p.split(':')[0]!),
  };
}
