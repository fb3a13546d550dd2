/**
 * Scenario runs over HTTP, on the root's live target: one at a time, never
 * together with a survival run (409), validated before anything is touched.
 */
import { ConflictError } from '../shared/errors.js';
import type { ArenaService } from '../arena/service.js';
import type { Target } from '../arena/providers.js';
import { checkScenarioText, loadScenario, runScenarioReport } from '../arena/scenario/index.js';

export interface ScenarioRunOptions {
  seed?: number;
  /** multiplies every timing the scenario states (0.1 = ten times faster) */
  timeScale?: number;
}

export interface ScenariosPort {
  validate(text: string): { valid: boolean; errors: unknown[] };
  run(text: string, signal: AbortSignal, options?: ScenarioRunOptions): Promise<unknown>;
  readonly isRunning: boolean;
  /** interrupts a running scenario (its faults are reverted) and waits for its end; `reason` is the abort's */
  stop(reason?: unknown): Promise<void>;
}

export function createScenariosPort(
  service: ArenaService,
  target: Target,
  isSurvivalRunning: () => boolean,
): ScenariosPort {
  let running = false;
  let current: { controller: AbortController; done: Promise<unknown> } | undefined;
  return {
    get isRunning() {
      return running;
    },
    validate(text) {
      const { valid, errors } = checkScenarioText(text);
      return { valid, errors };
    },
    async run(text, signal, options = {}) {
      const scenario = loadScenario(text);
      if (running)
        throw new ConflictError('a scenario run is already going on this arena; wait for it to end', {
          code: 'scenario_running',
        });
      if (isSurvivalRunning())
        throw new ConflictError('a survival run is going on this arena; stop it first', { code: 'survival_running' });
      running = true;
      const controller = new AbortController();
      try {
        const done = runScenarioReport(service, scenario, {
          signal: AbortSignal.any([signal, controller.signal]),
          strategy: (await target.describe()).strategy,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.timeScale !== undefined ? { timeScale: options.timeScale } : {}),
        });
        current = { controller, done };
        return await done;
      } finally {
        running = false;
        current = undefined;
      }
    },
    async stop(reason = new Error('the arena is shutting down')) {
      const c = current;
      if (!c) return;
      c.controller.abort(reason);
      await c.done.catch(() => undefined);
    },
  };
}
