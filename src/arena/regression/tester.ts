/**
 * RegressionTester: runs two strategies against the same workload, paired by
 * seed, and decides whether the candidate is better, worse, or not
 * distinguishable — with a fixed number of runs, or adaptively with a
 * group-sequential design that keeps the false-positive rate at alpha.
 */
import { CancelledError, RuntimeError, UsageError, errorMessage, isArenaError } from '../../shared/errors.js';
import { createRandom } from '../../shared/random.js';
import { analyzeScores, pairedLook, type RegressionAnalysis } from './analysis.js';
import { runPool } from './pool.js';
import { resilienceScorer, type Scorer } from './scorer.js';
import { evaluateLook, groupSequentialDesign, type SpendingFunction } from './sequential.js';
import type { Arm, RegressionArena, RegressionConfig, RunPair, SequentialLookRecord } from './types.js';

export interface RegressionResult extends RegressionAnalysis {
  baseline_name?: string;
  candidate_name?: string;
  scorer: string;
  seed: number;
  adaptive: boolean;
  /** runs per arm actually executed */
  runs_used: number;
  /** the most runs per arm the plan allowed */
  max_runs: number;
  pairs: RunPair[];
  sequential?: {
    looks: SequentialLookRecord[];
    stopped: 'efficacy' | 'futility' | 'max_runs';
    spending: 'lan-demets-obrien-fleming' | 'lan-demets-pocock';
    /** conditional-power threshold of the futility stop; 0 = no futility stop */
    futility_power: number;
  };
  duration_ms: number;
  /** set on the partial result carried by the CancelledError of an interrupted test */
  interrupted?: true;
}

interface ResolvedConfig {
  runs: number;
  alpha: number;
  adaptive: boolean;
  batch: number;
  minRuns: number;
  maxRuns: number;
  parallelism: number;
  seed: number;
  futilityPower: number;
  spending: SpendingFunction;
  minimumEffect: number;
}

export class RegressionTester {
  constructor(
    private readonly arena: RegressionArena,
    private readonly scorer: Scorer = resilienceScorer,
  ) {}

  async run(config: RegressionConfig): Promise<RegressionResult> {
    const started = Date.now();
    const c = resolveConfig(config);
    const seedSource = createRandom(c.seed);
    const seeds: number[] = [];
    const seedFor = (run: number) => {
      while (seeds.length <= run) seeds.push(seedSource.int(0, 2 ** 31 - 1));
      return seeds[run]!;
    };
    const baseline: number[] = [];
    const candidate: number[] = [];

    const runBatch = async (from: number, to: number) => {
      const tasks: Array<() => Promise<void>> = [];
      for (let run = from; run < to; run++) {
        for (const arm of ['baseline', 'candidate'] as const)
          tasks.push(() => this.runOne(config, arm, run, seedFor(run), arm === 'baseline' ? baseline : candidate));
      }
      await runPool(tasks, c.parallelism, config.signal);
      if (config.signal?.aborted) throw new CancelledError('regression test interrupted');
    };

    const finish = (
      analysis: RegressionAnalysis,
      pairs: RunPair[],
      sequential?: RegressionResult['sequential'],
    ): RegressionResult => ({
      ...analysis,
      ...(config.baselineName ? { baseline_name: config.baselineName } : {}),
      ...(config.candidateName ? { candidate_name: config.candidateName } : {}),
      scorer: this.scorer.name,
      seed: c.seed,
      adaptive: c.adaptive,
      runs_used: pairs.length,
      max_runs: c.adaptive ? c.maxRuns : c.runs,
      pairs,
      ...(sequential ? { sequential } : {}),
      duration_ms: Date.now() - started,
    });
    try {
      return await this.execute(c, config, runBatch, baseline, candidate, (a, seq) =>
        finish(
          a,
          baseline.map((b, run) => ({ run, seed: seeds[run]!, baseline: b, candidate: candidate[run]! })),
          seq,
        ),
      );
    } catch (err) {
      if (!(err instanceof CancelledError) && !config.signal?.aborted) throw err;
      // interrupted: the pairs that finished, analysed and flagged, travel with the error (not a verdict)
      const pairs: RunPair[] = [];
      for (let run = 0; run < seeds.length; run++) {
        if (baseline[run] !== undefined && candidate[run] !== undefined)
          pairs.push({ run, seed: seeds[run]!, baseline: baseline[run]!, candidate: candidate[run]! });
      }
      const message = `regression test interrupted after ${pairs.length} complete pair${pairs.length === 1 ? '' : 's'} of runs; no verdict`;
      if (pairs.length < 2) throw new CancelledError(message, { cause: err });
      const partial = finish(
        analyzeScores(
          pairs.map((p) => p.baseline),
          pairs.map((p) => p.candidate),
          { alpha: c.alpha, paired: true, minimumEffect: c.minimumEffect },
        ),
        pairs,
      );
      throw new CancelledError(message, { cause: err, details: { partial: { ...partial, interrupted: true } } });
    }
  }

  private async execute(
    c: ResolvedConfig,
    config: RegressionConfig,
    runBatch: (from: number, to: number) => Promise<void>,
    baseline: number[],
    candidate: number[],
    finish: (analysis: RegressionAnalysis, sequential?: RegressionResult['sequential']) => RegressionResult,
  ): Promise<RegressionResult> {
    let analysis: RegressionAnalysis;
    let sequential: RegressionResult['sequential'];
    if (!c.adaptive) {
      await runBatch(0, c.runs);
      analysis = analyzeScores(baseline, candidate, { alpha: c.alpha, paired: true, minimumEffect: c.minimumEffect });
    } else {
      const design = groupSequentialDesign({
        alpha: c.alpha,
        minRuns: c.minRuns,
        batchSize: c.batch,
        maxRuns: c.maxRuns,
        futilityPower: c.futilityPower,
        spending: c.spending,
      });
      const looks: SequentialLookRecord[] = [];
      let done = 0;
      let stopped: 'efficacy' | 'futility' | 'max_runs' = 'max_runs';
      let threshold = design.looks[design.looks.length - 1]!.nominal_p;
      for (let index = 0; index < design.looks.length; index++) {
        const plan = design.looks[index]!;
        await runBatch(done, plan.n);
        done = plan.n;
        const current = pairedLook(baseline, candidate);
        const outcome = evaluateLook(design, index, current.p_value, Math.sign(current.difference));
        const record: SequentialLookRecord = {
          index,
          n: plan.n,
          p_value: current.p_value,
          nominal_p: plan.nominal_p,
          z_boundary: plan.z,
          ...(outcome.conditional_power !== undefined ? { conditional_power: outcome.conditional_power } : {}),
          decision: outcome.decision,
        };
        looks.push(record);
        config.onEvent?.({ type: 'look', look: record });
        threshold = plan.nominal_p;
        if (outcome.decision === 'reject') {
          stopped = 'efficacy';
          break;
        }
        if (outcome.decision === 'futility') {
          stopped = 'futility';
          break;
        }
      }
      analysis = analyzeScores(baseline, candidate, {
        alpha: c.alpha,
        paired: true,
        threshold,
        minimumEffect: c.minimumEffect,
      });
      sequential = {
        looks,
        stopped,
        spending: c.spending === 'pocock' ? 'lan-demets-pocock' : 'lan-demets-obrien-fleming',
        futility_power: c.futilityPower,
      };
    }
    return finish(analysis, sequential);
  }

  private async runOne(config: RegressionConfig, arm: Arm, run: number, seed: number, into: number[]): Promise<void> {
    const strategy = arm === 'baseline' ? config.baseline : config.candidate;
    let score: number;
    try {
      const report = await this.arena.runArm({
        arm,
        run,
        seed,
        strategy,
        workload: config.workload,
        signal: config.signal,
      });
      score = this.scorer.score(report);
    } catch (err) {
      if (isArenaError(err)) throw err;
      throw new RuntimeError(`${arm} run ${run + 1} (seed ${seed}) failed: ${errorMessage(err)}`, {
        code: 'regression_run_failed',
        cause: err,
      });
    }
    if (!Number.isFinite(score))
      throw new RuntimeError(`scorer ${this.scorer.name} returned ${score} for ${arm} run ${run + 1}`);
    into[run] = score;
    config.onEvent?.({ type: 'run', arm, run, seed, score });
  }
}

function resolveConfig(config: RegressionConfig): ResolvedConfig {
  const problems: string[] = [];
  const int = (name: string, value: number | undefined, fallback: number, min: number) => {
    const v = value ?? fallback;
    if (!Number.isInteger(v) || v < min) problems.push(`${name} must be an integer ≥ ${min}, got ${String(value)}`);
    return v;
  };
  const runs = int('runs', config.runs, 10, 2);
  const batch = int('adaptiveBatchSize', config.adaptiveBatchSize, 5, 1);
  const minRuns = int('minAdaptiveRuns', config.minAdaptiveRuns, 5, 2);
  const maxRuns = int('maxRuns', config.maxRuns, Math.max(runs, 30), 2);
  const parallelism = int('parallelism', config.parallelism, 4, 1);
  const alpha = alphaOf(config, problems);
  // off by default: the stop saves runs on a null effect but costs power on a real one (test/bench/regress-adaptive.mjs)
  const futilityPower = config.futilityPower ?? 0;
  if (!(futilityPower >= 0 && futilityPower < 1))
    problems.push(`futilityPower must be in [0, 1), got ${futilityPower}`);
  const spending = config.spending ?? 'obrien-fleming';
  if (spending !== 'obrien-fleming' && spending !== 'pocock')
    problems.push(`spending must be obrien-fleming or pocock, got ${String(spending)}`);
  const adaptive = config.adaptive === true;
  if (adaptive && maxRuns < minRuns)
    problems.push(`maxRuns (${maxRuns}) must be at least minAdaptiveRuns (${minRuns})`);
  const seed = config.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0)
    problems.push(`seed must be a non-negative integer, got ${String(config.seed)}`);
  if (config.baseline === undefined) problems.push('baseline strategy is missing');
  if (config.candidate === undefined) problems.push('candidate strategy is missing');
  if (!config.workload || (!('scenario' in config.workload) && !('survival' in config.workload))) {
    problems.push('workload must be {scenario} or {survival}');
  }
  if (problems.length > 0)
    throw new UsageError(`invalid regression config: ${problems.join('; ')}`, { code: 'invalid_regression_config' });
  return {
    runs,
    alpha,
    adaptive,
    batch,
    minRuns,
    maxRuns,
    parallelism,
    seed,
    futilityPower,
    spending,
    minimumEffect: config.minimumEffect ?? 5,
  };
}

/** `alpha`, or `confidence` as 1 − alpha; never both, and never a confidence that looks like an alpha */
function alphaOf(config: RegressionConfig, problems: string[]): number {
  const { alpha, confidence } = config;
  if (alpha !== undefined && confidence !== undefined) {
    problems.push('give alpha or confidence, not both (confidence = 1 − alpha)');
    return 0.05;
  }
  if (confidence !== undefined) {
    if (typeof confidence !== 'number' || !(confidence > 0.5 && confidence < 1)) {
      problems.push(
        `confidence is the confidence level 1 − alpha and must be in (0.5, 1), got ${String(confidence)}${typeof confidence === 'number' && confidence > 0 && confidence < 0.5 ? ` (for a significance level of ${confidence}, give alpha: ${confidence})` : ''}`,
      );
      return 0.05;
    }
    return 1 - confidence;
  }
  const a = alpha ?? 0.05;
  if (typeof a !== 'number' || !(a > 0 && a < 0.5)) problems.push(`alpha must be in (0, 0.5), got ${String(alpha)}`);
  return a;
}
