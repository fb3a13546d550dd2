/**
 * The real RegressionArena: every run gets a fresh target from a TargetFactory,
 * built with the arm's strategy and the pair's seed, faces the workload (a
 * scenario or a survival run) and is stopped. The score is what the run
 * measured; a run that errored or was interrupted gives no score.
 */
import { isCutShort, type ScoreReport, type RunStatus } from '../report.js';
import { measuredScore } from '../score.js';
import type { Target, TargetFactory } from '../providers.js';
import { runSurvivalOnTarget } from '../survival/on-target.js';
import { runScenarioOnTarget } from '../scenario/target.js';
import type { Scenario } from '../scenario/types.js';
import { CancelledError, RuntimeError } from '../../shared/errors.js';
import type { ArmRunRequest, RegressionArena } from './types.js';

/** a scenario runner on a fresh target (starts it, runs, reverts faults, stops it) */
export type ScenarioOnTargetRunner = (
  target: Target,
  scenario: Scenario,
  options: { seed: number; signal?: AbortSignal },
) => Promise<{ score: ScoreReport; status: RunStatus; error?: string }>;

export interface TargetArenaOptions {
  /** a fresh target per run, built with the arm's strategy and the pair's seed */
  targetFactory?: TargetFactory;
  /** or: a fresh target per run from the arm itself (two target files compared) */
  createTarget?: (request: ArmRunRequest) => Promise<Target>;
  /** how a scenario runs on a target; default runScenarioOnTarget (the pair's seed overrides config.seed) */
  runScenario?: ScenarioOnTargetRunner;
}

export function createTargetArena(options: TargetArenaOptions): RegressionArena {
  return {
    async runArm(request: ArmRunRequest): Promise<ScoreReport> {
      const target = options.createTarget
        ? await options.createTarget(request)
        : options.targetFactory!({ strategy: request.strategy, seed: request.seed });
      const { workload, seed, signal } = request;
      let report: { score: ScoreReport; status: RunStatus; error?: string };
      if ('scenario' in workload) {
        const runScenario = options.runScenario ?? runScenarioOnTarget;
        report = await runScenario(target, workload.scenario, { seed, ...(signal ? { signal } : {}) });
      } else {
        const s = workload.survival;
        report = await runSurvivalOnTarget(target, {
          duration: s.duration_ms,
          interval: s.interval_ms,
          ...(s.actions ? { actions: s.actions } : {}),
          ...(s.recovery_deadline_ms !== undefined ? { recoveryDeadlineMs: s.recovery_deadline_ms } : {}),
          ...(s.cooldown_ms !== undefined ? { cooldown: s.cooldown_ms } : {}),
          seed,
          ...(signal ? { signal } : {}),
        });
      }
      if (isCutShort(report.status)) throw new CancelledError(report.error ?? 'run interrupted');
      if (report.status === 'error')
        throw new RuntimeError(`the run did not complete: ${report.error ?? 'unknown error'}`, {
          code: 'regression_run_failed',
        });
      measuredScore(report.score, `${request.arm} run ${request.run + 1} (seed ${seed})`);
      return report.score;
    },
  };
}
