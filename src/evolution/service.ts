/**
 * Evolution as the HTTP layer needs it (Evolution and RuntimeEvolution route
 * groups): start a search that outlives the request, list runs, read one run
 * with its per-generation progress, and the status of the runtime's
 * coordinator (decisions, strategy in force).
 */
import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, UsageError, errorMessage } from '../shared/errors.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { tryParseDuration } from '../shared/duration.js';
import { parseStrategy, type Strategy } from '../runtime/strategy.js';
import type { EvolutionCoordinator, StrategyHolder } from './coordinator.js';
import { runEvolution, type FitnessFunction, type GenerationStats } from './ga.js';
import { runIdleEvolution } from './idle.js';

export interface EvolutionRunRequest {
  generations: number;
  population: number;
  seed: number;
  elitism: number;
  /** survival window per evaluation (ms) */
  duration_ms: number;
  interval_ms: number;
  /** only evaluate while the runtime is idle */
  idle: boolean;
  /** apply the best strategy to the running runtime when the search ends */
  apply: boolean;
  initial?: unknown;
}

export interface EvolutionRun {
  id: string;
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  request: EvolutionRunRequest;
  started_at: string;
  finished_at?: string;
  generations: Array<Omit<GenerationStats, 'best_strategy'>>;
  best?: { strategy: Strategy; fitness: number; generation: number };
  initial_fitness?: number;
  evaluations?: number;
  applied?: boolean;
  error?: string;
}

export interface EvolutionServiceOptions {
  /** builds the fitness function of a run for its window (bootstrap passes seeded survival runs) */
  fitness: (window: { durationMs: number; intervalMs: number }) => FitnessFunction;
  /** the runtime's coordinator: its decisions and strategy appear in status() */
  coordinator?: EvolutionCoordinator;
  /** where `apply: true` writes the best strategy (the running runtime) */
  runtime?: StrategyHolder;
  isIdle?: () => boolean;
  clock?: Clock;
  /** runs kept (oldest dropped first, default 50) */
  keep?: number;
}

export class EvolutionService {
  private readonly runsById = new Map<string, EvolutionRun>();
  private current?: { run: EvolutionRun; controller: AbortController; done: Promise<void> };
  private readonly clock: Clock;

  constructor(private readonly options: EvolutionServiceOptions) {
    this.clock = options.clock ?? systemClock;
  }

  async status(): Promise<Record<string, unknown>> {
    const runs = [...this.runsById.values()];
    const best = runs.filter((r) => r.best).sort((a, b) => b.best!.fitness - a.best!.fitness)[0];
    return {
      running: this.current?.run.id ?? null,
      runs: runs.length,
      ...(best ? { best: { run_id: best.id, fitness: best.best!.fitness } } : {}),
      ...(this.options.coordinator ? { runtime: await this.options.coordinator.status() } : {}),
      ...(this.options.coordinator ? { decisions: this.options.coordinator.decisions().slice(-50) } : {}),
    };
  }

  runs(): EvolutionRun[] {
    return [...this.runsById.values()].map((r) => ({ ...r, generations: [...r.generations] }));
  }

  run(id: string): EvolutionRun {
    const r = this.runsById.get(id);
    if (!r) throw new NotFoundError(`no evolution run ${id}`);
    return r;
  }

  /** starts a search in the background; ConflictError when one is running */
  startRun(input: Record<string, unknown> = {}): EvolutionRun {
    if (this.current)
      throw new ConflictError(`evolution run ${this.current.run.id} is still running`, { code: 'evolution_running' });
    const request = parseRunRequest(input);
    if (request.apply && !this.options.runtime)
      throw new UsageError('apply: there is no running runtime to apply the best strategy to', {
        code: 'invalid_input',
      });
    const run: EvolutionRun = {
      id: randomUUID().slice(0, 8),
      status: 'running',
      request,
      started_at: this.clock.wallNow().toISOString(),
      generations: [],
    };
    this.runsById.set(run.id, run);
    this.trim();
    const controller = new AbortController();
    const done = this.execute(run, controller.signal).finally(() => (this.current = undefined));
    this.current = { run, controller, done };
    return run;
  }

  /** stops the running search (it ends after the evaluation in progress) */
  async stop(): Promise<void> {
    const c = this.current;
    if (!c) return;
    c.controller.abort();
    await c.done;
  }

  /** resolves when the running search (if any) has ended */
  async wait(): Promise<void> {
    await this.current?.done;
  }

  private async execute(run: EvolutionRun, signal: AbortSignal): Promise<void> {
    const r = run.request;
    const fitness = this.options.fitness({ durationMs: r.duration_ms, intervalMs: r.interval_ms });
    const common = {
      generations: r.generations,
      population: r.population,
      seed: r.seed,
      elitism: r.elitism,
      fitness,
      signal,
      ...(r.initial !== undefined ? { initial: r.initial } : {}),
      onGeneration: ({ best_strategy, ...stats }: GenerationStats) => {
        void best_strategy;
        run.generations.push(stats);
      },
    };
    try {
      const result =
        r.idle && this.options.isIdle
          ? await runIdleEvolution({ ...common, isIdle: this.options.isIdle, clock: this.clock })
          : await runEvolution(common);
      run.best = result.best;
      run.initial_fitness = result.initial.fitness;
      run.evaluations = result.evaluations;
      if (r.apply && this.options.runtime) {
        this.options.runtime.updateStrategy(result.best.strategy);
        run.applied = true;
      }
      run.status = 'completed';
    } catch (err) {
      run.status = signal.aborted ? 'cancelled' : 'failed';
      run.error = errorMessage(err);
    } finally {
      run.finished_at = this.clock.wallNow().toISOString();
    }
  }

  private trim(): void {
    const keep = this.options.keep ?? 50;
    for (const id of this.runsById.keys()) {
      if (this.runsById.size <= keep) break;
      if (id !== this.current?.run.id) this.runsById.delete(id);
    }
  }
}

/** the survival time one evolution run may spend in total (each candidate runs `duration`) */
export const MAX_RUN_BUDGET_MS = 60 * 60_000;

/** body of POST …/runs: every field optional, each checked */
export function parseRunRequest(input: Record<string, unknown>): EvolutionRunRequest {
  const problems: string[] = [];
  const known = new Set([
    'generations',
    'population',
    'seed',
    'elitism',
    'duration',
    'interval',
    'idle',
    'apply',
    'initial',
    'strategy',
  ]);
  for (const key of Object.keys(input))
    if (!known.has(key)) problems.push(`${key}: unknown field (expected one of ${[...known].join(', ')})`);
  const int = (key: string, dflt: number, min: number, max: number): number => {
    const v = input[key];
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      problems.push(`${key}: must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
      return dflt;
    }
    return v;
  };
  const ms = (key: string, dflt: number): number => {
    const v = input[key];
    if (v === undefined) return dflt;
    const parsed = tryParseDuration(v);
    if (parsed === undefined || parsed <= 0) {
      problems.push(
        `${key}: must be a positive duration ("500ms", "2s") or milliseconds up to 24h, got ${JSON.stringify(v)}`,
      );
      return dflt;
    }
    return parsed;
  };
  const bool = (key: string): boolean => {
    const v = input[key];
    if (v === undefined) return false;
    if (typeof v !== 'boolean') problems.push(`${key}: must be true or false`);
    return v === true;
  };
  const population = int('population', 6, 2, 100);
  const request: EvolutionRunRequest = {
    generations: int('generations', 5, 1, 1000),
    population,
    seed: int('seed', 1, 0, 2 ** 32 - 1),
    elitism: int('elitism', 1, 0, 99),
    duration_ms: ms('duration', 1000),
    interval_ms: ms('interval', 150),
    idle: bool('idle'),
    apply: bool('apply'),
  };
  if (request.elitism >= population) problems.push(`elitism: must be below population (${population})`);
  // a run is started by one request: its work must be bounded too (each candidate is a survival run)
  const budgetMs = request.generations * request.population * request.duration_ms;
  if (budgetMs > MAX_RUN_BUDGET_MS) {
    problems.push(
      `generations × population × duration = ${request.generations} × ${request.population} × ${request.duration_ms} ms of survival runs; at most ${MAX_RUN_BUDGET_MS / 60_000} minutes per run`,
    );
  }
  const initial = input.initial ?? input.strategy;
  if (initial !== undefined) {
    try {
      request.initial = parseStrategy(initial, 'initial');
    } catch (err) {
      problems.push(errorMessage(err));
    }
  }
  if (problems.length > 0)
    throw new UsageError(`invalid evolution run:\n  - ${problems.join('\n  - ')}`, {
      code: 'invalid_input',
      details: problems,
    });
  return request;
}
