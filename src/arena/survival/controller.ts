/**
 * One survival run at a time per ArenaService: starting a second while one is
 * going is a ConflictError (HTTP 409), never a silent no-op. Status and stop
 * serve `GET /arena/survival/status` and `POST /arena/survival/stop`.
 */
import { ConflictError } from '../../shared/errors.js';
import type { RunService } from '../run/service-port.js';
import type { LiveScore, RunEvent, SurvivalReport } from '../report.js';
import { resolveSurvivalConfig, runSurvival, type SurvivalOptions } from './run.js';

export interface SurvivalStatus {
  running: boolean;
  seed?: number;
  started_at?: string;
  /** ms since the running survival started */
  elapsed_ms: number;
  /** 0–1 through warmup, chaos and cooldown */
  progress: number;
  actions_run: number;
  live?: LiveScore;
  /** the report of the last finished run, if any */
  last_report?: SurvivalReport;
}

interface Current {
  abort: AbortController;
  promise: Promise<SurvivalReport>;
  seed?: number;
  startedAt: string;
  startedMs: number;
  progress: number;
  actionsRun: number;
  live?: LiveScore;
}

export class SurvivalController {
  private current?: Current;
  private last?: SurvivalReport;

  constructor(private readonly service: RunService) {}

  get isRunning(): boolean {
    return this.current !== undefined;
  }

  start(options: SurvivalOptions): Promise<SurvivalReport> {
    if (this.current) {
      return Promise.reject(
        new ConflictError('a survival run is already going on this arena; stop it first or wait for it to end', {
          code: 'survival_running',
        }),
      );
    }
    // bad options fail at once, before the run counts as started
    let seed: number;
    try {
      seed = resolveSurvivalConfig(options).seed;
    } catch (err) {
      return Promise.reject(err);
    }
    const abort = new AbortController();
    const clock = options.clock ?? this.service.clock;
    const current: Current = {
      abort,
      promise: undefined as never,
      seed,
      startedAt: clock.wallNow().toISOString(),
      startedMs: clock.now(),
      progress: 0,
      actionsRun: 0,
    };
    const onEvent = (event: RunEvent) => {
      if (event.type === 'run.started') current.seed = event.seed;
      else if (event.type === 'action') current.actionsRun++;
      else if (event.type === 'snapshot') {
        current.progress = event.progress;
        current.live = event.live;
      }
      options.onEvent?.(event);
    };
    const signal = options.signal ? AbortSignal.any([abort.signal, options.signal]) : abort.signal;
    this.current = current;
    current.promise = runSurvival(this.service, { ...options, seed, signal, onEvent }).then(
      (report) => {
        this.last = report;
        this.current = undefined;
        return report;
      },
      (err: unknown) => {
        this.current = undefined;
        throw err;
      },
    );
    return current.promise;
  }

  status(): SurvivalStatus {
    const c = this.current;
    const base = this.last ? { last_report: this.last } : {};
    if (!c) return { running: false, elapsed_ms: 0, progress: 0, actions_run: 0, ...base };
    const status: SurvivalStatus = {
      running: true,
      started_at: c.startedAt,
      elapsed_ms: Math.round(this.service.clock.now() - c.startedMs),
      progress: c.progress,
      actions_run: c.actionsRun,
      ...base,
    };
    if (c.seed !== undefined) status.seed = c.seed;
    if (c.live) status.live = c.live;
    return status;
  }

  /** stops the running survival (faults reverted) and resolves with its partial report; undefined when none runs */
  async stop(reason: unknown = 'stopped'): Promise<SurvivalReport | undefined> {
    const c = this.current;
    if (!c) return undefined;
    c.abort.abort(reason);
    return c.promise;
  }

  lastReport(): SurvivalReport | undefined {
    return this.last;
  }
}
