/**
 * Survival over HTTP: started in the background on the root's arena, one at
 * a time (409 otherwise), with status, stop and the last report.
 */
import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { ArenaService } from '../arena/service.js';
import type { Target } from '../arena/providers.js';
import type { StopWhen } from '../arena/safety/types.js';
import { resolveSurvivalConfig } from '../arena/survival/run.js';
import { agentRefusesOf, survivalKinds } from '../arena/survival/on-target.js';

export interface SurvivalPort {
  start(request: {
    duration: string | number;
    interval: string | number;
    seed?: number;
    actions?: string[];
    stopWhen?: StopWhen;
  }): Promise<unknown>;
  status(): unknown;
  stop(): Promise<unknown>;
  report(): unknown;
  readonly isRunning: boolean;
  /** resolves when a running survival has ended */
  settled(): Promise<void>;
}

export function createSurvivalPort(
  service: ArenaService,
  target: Target,
  isScenarioRunning: () => boolean = () => false,
): SurvivalPort {
  let running: Promise<unknown> | undefined;
  let lastError: string | undefined;
  return {
    get isRunning() {
      return service.getSurvivalStatus().running;
    },
    async start(request) {
      if (service.getSurvivalStatus().running) {
        throw new ConflictError(
          'a survival run is already going; stop it with POST /arena/survival/stop or wait for it to end',
          { code: 'survival_running' },
        );
      }
      // two runs on one target would each count the other's faults as their own
      if (isScenarioRunning())
        throw new ConflictError('a scenario run is going on this arena; wait for it to end', {
          code: 'scenario_running',
        });
      // the same mix as from the command line: kinds asked for that the target cannot apply are refused (400),
      // the default mix leaves them out and the report says why
      const chosen = survivalKinds(target, request, resolveSurvivalConfig(request));
      const mix = {
        ...(chosen.leftOut.length > 0 ? { actions: chosen.kinds, kindsLeftOut: chosen.leftOut } : {}),
        ...agentRefusesOf(target),
      };
      lastError = undefined;
      let started = () => {};
      const begun = new Promise<void>((resolve) => (started = resolve));
      const promise = target.describe().then((d) =>
        service.runSurvival({
          ...request,
          ...mix,
          strategy: d.strategy,
          onEvent: (event) => {
            if (event.type === 'run.started') started();
          },
        }),
      );
      running = promise.then(
        () => undefined,
        (err: unknown) => {
          lastError = err instanceof Error ? err.message : String(err);
        },
      );
      // a request that is invalid (bad options, a stop condition this target cannot evaluate, which may
      // take a call to the target to tell) fails before the run starts: the caller's error, not a background one
      await Promise.race([running, begun]);
      if (lastError !== undefined && !service.getSurvivalStatus().running) {
        await promise.catch((err: unknown) => {
          throw err;
        });
      }
      return service.getSurvivalStatus();
    },
    status() {
      const status = service.getSurvivalStatus() as unknown as Record<string, unknown>;
      return lastError ? { ...status, last_error: lastError } : status;
    },
    async stop() {
      if (!service.getSurvivalStatus().running)
        throw new ConflictError('no survival run is going', { code: 'survival_not_running' });
      const report = await service.stopSurvival();
      return report ?? service.getSurvivalStatus();
    },
    report() {
      const report = service.getSurvivalReport();
      if (!report) throw new NotFoundError('no survival run has finished yet', { code: 'no_survival_report' });
      return report;
    },
    async settled() {
      await running;
    },
  };
}
