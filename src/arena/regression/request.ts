/**
 * The rules of a regression request, for `arena regress` and any HTTP caller alike: which option
 * combinations make sense and how their values (text, as a user types them) parse. Pure: it reads
 * no file and runs nothing; bootstrap/regress.ts executes the plan it returns.
 */
import { UsageError, errorMessage } from '../../shared/errors.js';
import { durationProblem, tryParseDuration } from '../../shared/duration.js';
import { randomSeed } from '../../shared/random.js';
import { EnsembleScorer, dimensionScorer, resilienceScorer, type Scorer } from './scorer.js';
import type { SurvivalWorkload } from './types.js';

/** what a user asks for, every value as given (the CLI's flags, camel-cased) */
export interface RegressRequest {
  baseline?: string;
  candidate?: string;
  baselineTarget?: string;
  candidateTarget?: string;
  baselineScores?: string[];
  candidateScores?: string[];
  paired?: boolean;
  scenario?: string;
  survival?: string;
  interval?: string;
  actions?: string;
  recoveryDeadline?: string;
  cooldown?: string;
  runs?: string;
  adaptive?: boolean;
  minRuns?: string;
  batch?: string;
  maxRuns?: string;
  spending?: string;
  futility?: string;
  alpha?: string;
  parallel?: string;
  seed?: string;
  minEffect?: string;
  weights?: string;
  workers?: string;
}

interface PlanBase {
  alpha: number;
  minimumEffect: number;
}

/** compare recorded scores (files of numbers or reports) */
export interface ScoresPlan extends PlanBase {
  kind: 'scores';
  baselineFiles: string[];
  candidateFiles: string[];
  paired: boolean;
}

/** run both arms on the same seeds: two strategies on the embedded target, or two target files */
export interface RunsPlan extends PlanBase {
  kind: 'runs';
  arms: 'strategies' | 'targets';
  baseline: string;
  candidate: string;
  runs: number;
  adaptive: boolean;
  minRuns: number;
  batch: number;
  maxRuns: number;
  spending: 'obrien-fleming' | 'pocock';
  futilityPower: number;
  parallelism: number;
  seed: number;
  scorer?: Scorer;
  workload: { scenarioFile: string } | { survival: SurvivalWorkload };
  /** a postgres:// URL: the runs go on a queue there for worker processes */
  workers?: string;
}

export type RegressPlan = ScoresPlan | RunsPlan;

/** Checks a request's combinations and values; throws a UsageError naming the option at fault. */
export function planRegress(request: RegressRequest, seedSource: () => number = randomSeed): RegressPlan {
  const alpha = parseNumber(request.alpha, '--alpha', 0.05, (v) => v > 0 && v < 0.5, 'a number between 0 and 0.5');
  const minimumEffect = parseNumber(
    request.minEffect,
    '--min-effect',
    5,
    (v) => v > 0,
    'a positive number of score points',
  );
  return request.baselineScores || request.candidateScores
    ? planScores(request, { alpha, minimumEffect })
    : planRuns(request, { alpha, minimumEffect }, seedSource);
}

function planScores(request: RegressRequest, base: PlanBase): ScoresPlan {
  if (request.baseline || request.candidate) {
    throw new UsageError(
      'give either --baseline/--candidate (strategies to run) or --baseline-scores/--candidate-scores (recorded scores), not both',
    );
  }
  if (!request.baselineScores || !request.candidateScores)
    throw new UsageError('--baseline-scores and --candidate-scores go together: give both');
  for (const flag of ['scenario', 'survival', 'adaptive', 'runs', 'parallel', 'weights', 'workers'] as const) {
    if (request[flag] !== undefined)
      throw new UsageError(`--${flag} runs strategies; it does not apply to recorded scores`);
  }
  return {
    kind: 'scores',
    ...base,
    baselineFiles: request.baselineScores,
    candidateFiles: request.candidateScores,
    paired: request.paired === true,
  };
}

function planRuns(request: RegressRequest, base: PlanBase, seedSource: () => number): RunsPlan {
  const byTarget = request.baselineTarget !== undefined || request.candidateTarget !== undefined;
  if (byTarget && (request.baseline || request.candidate))
    throw new UsageError(
      'give strategies (--baseline/--candidate) or target files (--baseline-target/--candidate-target), not both',
    );
  if (byTarget && (!request.baselineTarget || !request.candidateTarget))
    throw new UsageError('--baseline-target and --candidate-target go together: give both');
  if (byTarget && request.workers !== undefined)
    throw new UsageError(
      '--workers runs strategies on the embedded runtime; compare target files on this machine (without --workers)',
    );
  if (!byTarget && (!request.baseline || !request.candidate)) {
    throw new UsageError(
      'give --baseline and --candidate strategy files, --baseline-target and --candidate-target files (or --baseline-scores and --candidate-scores)',
    );
  }
  if (request.scenario && request.survival) throw new UsageError('give --scenario or --survival, not both');
  if (request.scenario) {
    for (const [flag, value] of [
      ['--interval', request.interval],
      ['--actions', request.actions],
      ['--recovery-deadline', request.recoveryDeadline],
      ['--cooldown', request.cooldown],
    ] as const) {
      if (value !== undefined) throw new UsageError(`${flag} is a survival setting; the scenario file sets its own`);
    }
  }
  if (request.paired) throw new UsageError('--paired is for recorded scores; strategy runs are always paired by seed');
  if (!request.adaptive) {
    for (const [flag, value] of [
      ['--min-runs', request.minRuns],
      ['--batch', request.batch],
      ['--max-runs', request.maxRuns],
      ['--spending', request.spending],
      ['--futility', request.futility],
    ] as const) {
      if (value !== undefined)
        throw new UsageError(`${flag} sets adaptive stopping: add --adaptive (or use --runs for a fixed number)`);
    }
  } else if (request.runs !== undefined) {
    throw new UsageError('--runs fixes the number of runs; with --adaptive use --min-runs, --batch and --max-runs');
  }
  const runs = parseInteger(request.runs, '--runs', 10, 2);
  const minRuns = parseInteger(request.minRuns, '--min-runs', 5, 2);
  const batch = parseInteger(request.batch, '--batch', 5, 1);
  const maxRuns = parseInteger(request.maxRuns, '--max-runs', Math.max(30, minRuns), 2);
  if (maxRuns < minRuns) throw new UsageError(`--max-runs (${maxRuns}) must be at least --min-runs (${minRuns})`);
  const spending = request.spending ?? 'obrien-fleming';
  if (spending !== 'obrien-fleming' && spending !== 'pocock')
    throw new UsageError(`--spending: expected obrien-fleming or pocock, got ${JSON.stringify(request.spending)}`);
  const futilityPower = parseNumber(
    request.futility,
    '--futility',
    0,
    (v) => v >= 0 && v < 1,
    'a conditional power in [0, 1)',
  );
  // two real systems on one machine: one run at a time unless told otherwise;
  // with workers, every run of a look goes on the queue at once: the workers are the limit
  const parallelism = parseInteger(request.parallel, '--parallel', byTarget ? 1 : request.workers ? 10_000 : 4, 1);
  const seed = request.seed === undefined ? seedSource() : parseInteger(request.seed, '--seed', 0, 0);
  const scorer = request.weights === undefined ? undefined : parseWeights(request.weights);
  return {
    kind: 'runs',
    ...base,
    arms: byTarget ? 'targets' : 'strategies',
    baseline: (request.baselineTarget ?? request.baseline)!,
    candidate: (request.candidateTarget ?? request.candidate)!,
    runs,
    adaptive: request.adaptive === true,
    minRuns,
    batch,
    maxRuns,
    spending,
    futilityPower,
    parallelism,
    seed,
    ...(scorer ? { scorer } : {}),
    workload: request.scenario ? { scenarioFile: request.scenario } : { survival: survivalWorkload(request) },
    ...(request.workers !== undefined ? { workers: request.workers } : {}),
  };
}

function survivalWorkload(request: RegressRequest): SurvivalWorkload {
  const duration = parseDurationFlag(request.survival, '--survival', 3000);
  const interval = parseDurationFlag(request.interval, '--interval', 500);
  if (duration <= 0 || interval <= 0) throw new UsageError('--survival and --interval must be longer than 0');
  const actions = request.actions
    ?.split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const deadline =
    request.recoveryDeadline === undefined
      ? undefined
      : parseDurationFlag(request.recoveryDeadline, '--recovery-deadline', 0);
  if (deadline !== undefined && deadline <= 0) throw new UsageError('--recovery-deadline must be longer than 0');
  const cooldown = request.cooldown === undefined ? undefined : parseDurationFlag(request.cooldown, '--cooldown', 0);
  return {
    duration_ms: duration,
    interval_ms: interval,
    ...(actions && actions.length > 0 ? { actions } : {}),
    ...(deadline !== undefined ? { recovery_deadline_ms: deadline } : {}),
    ...(cooldown !== undefined ? { cooldown_ms: cooldown } : {}),
  };
}

/** `availability=2,recovery=1` → an EnsembleScorer over the score dimensions (and `score`, the resilience score) */
export function parseWeights(text: string): Scorer {
  const known: Record<string, Scorer> = {
    score: resilienceScorer,
    availability: dimensionScorer('availability'),
    recovery: dimensionScorer('recovery'),
    consistency: dimensionScorer('consistency'),
  };
  const members = text.split(',').map((part) => {
    const match = /^\s*([a-z_]+)\s*=\s*(\S+)\s*$/.exec(part);
    if (!match)
      throw new UsageError(
        `--weights: expected name=weight pairs such as availability=2,recovery=1, got ${JSON.stringify(part)}`,
      );
    const scorer = known[match[1]!];
    if (!scorer)
      throw new UsageError(`--weights: unknown scorer "${match[1]}" (known: ${Object.keys(known).join(', ')})`);
    return { scorer, weight: Number(match[2]) };
  });
  try {
    return new EnsembleScorer(members);
  } catch (err) {
    throw new UsageError(`--weights: ${errorMessage(err)}`);
  }
}

function parseInteger(value: string | undefined, flag: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`${flag}: expected an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  }
  return n;
}

function parseNumber(
  value: string | undefined,
  flag: string,
  fallback: number,
  ok: (v: number) => boolean,
  expected: string,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || !ok(n))
    throw new UsageError(`${flag}: expected ${expected}, got ${JSON.stringify(value)}`);
  return n;
}

function parseDurationFlag(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = tryParseDuration(value);
  if (ms === undefined) throw new UsageError(`${flag}: ${durationProblem(value)}`);
  return ms;
}
