/**
 * Survival against a fresh target: starts it, runs, and always reverts and
 * stops it (../run/on-target.ts). Bad options fail before the target starts.
 */
import type { Target } from '../providers.js';
import type { SurvivalReport } from '../report.js';
import { runOnTarget } from '../run/on-target.js';
import { resolveSurvivalConfig, type ResolvedSurvivalConfig, type SurvivalOptions } from './run.js';
import { assertSupported } from '../support.js';
import type { ActionType } from '../action.js';
import type { LeftOutKind } from '../report.js';

export async function runSurvivalOnTarget(target: Target, options: SurvivalOptions): Promise<SurvivalReport> {
  const config = resolveSurvivalConfig(options);
  let kinds: ActionType[] | undefined;
  let leftOut: LeftOutKind[] = [];
  return runOnTarget(target, options, {
    check() {
      const chosen = survivalKinds(target, options, config);
      if (chosen.leftOut.length === 0) return;
      kinds = chosen.kinds;
      leftOut = chosen.leftOut;
      options.onNotice?.(
        `survival on ${target.name}: leaving out faults it cannot apply: ${leftOut.map((l) => `${l.type} (${l.reason})`).join('; ')}`,
      );
    },
    run: (service, strategy) =>
      service.runSurvival({
        ...options,
        strategy,
        ...(kinds ? { actions: kinds, kindsLeftOut: leftOut } : {}),
        ...agentRefusesOf(target),
        ...(target.calls ? { calls: target.calls } : {}),
        seed: config.seed,
      }),
  });
}

/**
 * The kinds a survival run on this (started) target draws from: the ones asked for, refused (UsageError)
 * when the target cannot apply one; or the default mix less what the target cannot apply, each left out
 * with the target's reason (a process target without an mcp: proxy has no tool results to change). A dry
 * run plans from the same list, so it draws what the real run draws.
 */
export function survivalKinds(
  target: Target,
  options: SurvivalOptions,
  config: ResolvedSurvivalConfig,
): { kinds: ActionType[]; leftOut: LeftOutKind[] } {
  if (options.actions !== undefined || options.timeline) {
    assertSupported(target, config.kinds, 'survival');
    return { kinds: config.kinds, leftOut: [] };
  }
  const refused = target.unsupportedFaults();
  const leftOut: LeftOutKind[] = [];
  for (const type of config.kinds) {
    const reason = refused[type];
    if (reason !== undefined) leftOut.push({ type, reason });
  }
  return { kinds: config.kinds.filter((k) => refused[k] === undefined), leftOut };
}

/** the target's per-agent refusals as a survival option (absent when it has none) */
export function agentRefusesOf(target: Target): Pick<SurvivalOptions, 'agentRefuses'> {
  return target.agentRefuses ? { agentRefuses: (id, type) => target.agentRefuses!(id, type) } : {};
}
