/**
 * Executes a regression plan (arena/regression/request.ts): reads recorded scores, or builds both
 * arms (strategies on the embedded target, or two target files) and runs them on the same seeds.
 * Here rather than in arena/ because it picks concrete targets. Heavy modules load only when used.
 */
import { resolve } from 'node:path';
import { UsageError } from '../shared/errors.js';
import { analyzeScores } from '../arena/regression/analysis.js';
import { readScoresFile } from '../arena/regression/score-files.js';
import type { RegressPlan, RunsPlan, ScoresPlan } from '../arena/regression/request.js';
import type { RegressionVerdict } from '../arena/regression/verdict.js';
import type { RegressionArena, RegressionEvent, RegressionWorkload } from '../arena/regression/types.js';

export interface RegressEnvironment {
  /** file names in the plan are relative to this */
  cwd: string;
  /** handed to target files' processes */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** before the first run: what is compared, and where the runs go */
  onNotice?: (line: string) => void;
  onEvent?: (event: RegressionEvent) => void;
}

/** Throws CancelledError (with `details.partial`, the finished pairs) when the signal aborts. */
export async function runRegressPlan(plan: RegressPlan, env: RegressEnvironment): Promise<RegressionVerdict> {
  return plan.kind === 'scores' ? compareRecorded(plan, env.cwd) : compareRuns(plan, env);
}

async function compareRecorded(plan: ScoresPlan, cwd: string): Promise<RegressionVerdict> {
  const baseline = (
    await Promise.all(plan.baselineFiles.map((f) => readScoresFile(resolve(cwd, f), 'baseline scores', f)))
  ).flat();
  const candidate = (
    await Promise.all(plan.candidateFiles.map((f) => readScoresFile(resolve(cwd, f), 'candidate scores', f)))
  ).flat();
  for (const [name, scores] of [
    ['baseline', baseline],
    ['candidate', candidate],
  ] as const) {
    if (scores.length < 2)
      throw new UsageError(`${name} scores: need at least 2 scores to compare, got ${scores.length}`, {
        code: 'invalid_scores',
      });
  }
  if (plan.paired && baseline.length !== candidate.length) {
    throw new UsageError(
      `--paired needs as many baseline as candidate scores (${baseline.length} vs ${candidate.length})`,
      { code: 'invalid_scores' },
    );
  }
  const analysis = analyzeScores(baseline, candidate, {
    alpha: plan.alpha,
    paired: plan.paired,
    minimumEffect: plan.minimumEffect,
  });
  return { mode: 'scores', baseline_files: plan.baselineFiles, candidate_files: plan.candidateFiles, ...analysis };
}

async function compareRuns(plan: RunsPlan, env: RegressEnvironment): Promise<RegressionVerdict> {
  const { cwd } = env;
  let baseline: unknown;
  let candidate: unknown;
  let arena: RegressionArena;
  const { createTargetArena } = await import('../arena/regression/target-arena.js');
  if (plan.arms === 'targets') {
    const { loadTargetFile } = await import('../targets/file.js');
    const [b, c] = await Promise.all([
      loadTargetFile(resolve(cwd, plan.baseline), plan.baseline),
      loadTargetFile(resolve(cwd, plan.candidate), plan.candidate),
    ]);
    // the arms differ by system, not by strategy: each run builds a fresh target from its arm's file
    baseline = { target: plan.baseline };
    candidate = { target: plan.candidate };
    arena = createTargetArena({
      createTarget: (request) => (request.arm === 'baseline' ? b : c).create({ seed: request.seed, env: env.env }),
    });
  } else {
    const [{ loadStrategyFile }, { embeddedTargetFactory }] = await Promise.all([
      import('../runtime/strategy.js'),
      import('../targets/embedded/index.js'),
    ]);
    [baseline, candidate] = await Promise.all([
      loadStrategyFile(resolve(cwd, plan.baseline)),
      loadStrategyFile(resolve(cwd, plan.candidate)),
    ]);
    // every run on a fresh embedded target
    arena = createTargetArena({ targetFactory: embeddedTargetFactory });
  }
  const workload = await loadWorkload(plan, cwd);
  const { RegressionTester } = await import('../arena/regression/tester.js');
  env.onNotice?.(
    `regress: ${plan.candidate} vs ${plan.baseline}, ${plan.adaptive ? `adaptive, ${plan.minRuns}..${plan.maxRuns}` : plan.runs} runs per arm, seed ${plan.seed}`,
  );
  const queue = plan.workers === undefined ? undefined : await openWorkerQueue(plan.workers, plan.seed);
  if (queue) env.onNotice?.(`regress: runs go on the queue in ${queue.location} for arena worker processes`);
  // the web console of any `arena serve` on that database shows this progress (src/events/regress-progress.ts)
  queue?.progress.started({
    baseline: plan.baseline,
    candidate: plan.candidate,
    seed: plan.seed,
    adaptive: plan.adaptive,
    max_runs: plan.adaptive ? plan.maxRuns : plan.runs,
    ...(plan.adaptive ? { min_runs: plan.minRuns } : {}),
    alpha: plan.alpha,
  });
  const onEvent = env.onEvent;
  const result = await new RegressionTester(queue?.arena ?? arena, plan.scorer)
    .run({
      baseline,
      candidate,
      baselineName: plan.baseline,
      candidateName: plan.candidate,
      runs: plan.runs,
      alpha: plan.alpha,
      adaptive: plan.adaptive,
      minAdaptiveRuns: plan.minRuns,
      adaptiveBatchSize: plan.batch,
      maxRuns: plan.maxRuns,
      spending: plan.spending,
      futilityPower: plan.futilityPower,
      parallelism: plan.parallelism,
      workload,
      seed: plan.seed,
      minimumEffect: plan.minimumEffect,
      ...(env.signal ? { signal: env.signal } : {}),
      ...(onEvent || queue
        ? {
            onEvent: (event: RegressionEvent) => {
              onEvent?.(event);
              queue?.progress.event(event);
            },
          }
        : {}),
    })
    .then(
      (r) => {
        queue?.progress.finished({ ...r, ...(r.sequential ? { stopped: r.sequential.stopped } : {}) });
        return r;
      },
      (err: unknown) => {
        queue?.progress.failed(err);
        throw err;
      },
    )
    .finally(() => queue?.close());
  return { mode: 'strategies', ...result };
}

async function loadWorkload(plan: RunsPlan, cwd: string): Promise<RegressionWorkload> {
  if ('survival' in plan.workload) return { survival: plan.workload.survival };
  const { loadScenarioFile } = await import('../arena/scenario/load.js');
  const file = plan.workload.scenarioFile;
  return { scenario: await loadScenarioFile(resolve(cwd, file)), file };
}

/** `--workers postgres://…`: the runs of this invocation on the queue there (src/events/run-queue.ts) */
async function openWorkerQueue(url: string, seed: number) {
  const { storeKind } = await import('../events/store-spec.js');
  if (storeKind(url) !== 'postgres')
    throw new UsageError(
      `--workers takes a postgres:// URL (the database arena worker processes take runs from), got ${JSON.stringify(url)}`,
    );
  const [{ openQueueArena }, { randomUUID }] = await Promise.all([
    import('../events/run-queue.js'),
    import('node:crypto'),
  ]);
  return openQueueArena(url, `regress-${seed}-${randomUUID().slice(0, 8)}`);
}
