import type { RunEventListener } from '../../arena/report.js';
import type { EventStore } from '../../arena/event-store.js';
import type { CliContext } from '../context.js';
import type { OutputMode } from '../output/mode.js';
import { openRunOutput } from '../output/run-output.js';
import { checkOutputPaths } from '../output/emit.js';
import type { AttachedPlugin } from '../run-plugin.js';
import { attachPlugins } from '../run-plugins.js';
import { keepAliveWhile } from '../../shared/keep-alive.js';
import type { Target } from '../../arena/providers.js';
import type { TargetChoice } from './targets.js';

/**
 * Opens the plugins (--serve, --store …) and then the live view or plain
 * reporter around a run, and closes all of them whatever happens. Plugins come
 * first: one that cannot start (a port in use) fails before anything is drawn.
 */
export interface RunSinks {
  /** from --store: where the run's arena service appends its event stream */
  eventStore?: EventStore;
}

/**
 * Builds the run's targets once the plugins are open: what they give a target (--otlp's tracing) reaches
 * it, and what they read from one (--serve's tokens and workload) sees it.
 */
export interface RunTargets {
  create(choice: TargetChoice, seed: number): Promise<Target>;
}

export async function runWithOutput<T>(
  ctx: CliContext,
  opts: object,
  mode: OutputMode,
  run: (onEvent: RunEventListener, sinks: RunSinks, targets: RunTargets) => Promise<T>,
): Promise<T> {
  checkOutputPaths(ctx, opts);
  const plugins: AttachedPlugin[] = await attachPlugins(opts as Record<string, unknown>, ctx);
  try {
    // the engine's clock timers are unref'd: hold the event loop open while the run is awaited
    return await keepAliveWhile(async () => {
      const output = await openRunOutput(ctx, mode);
      for (const p of plugins) output.addListener(p.listener);
      try {
        const eventStore = plugins.find((p) => p.eventStore)?.eventStore;
        const tracing = plugins.find((p) => p.tracing)?.tracing;
        const targets: RunTargets = {
          async create(choice, seed) {
            const target = await choice.create(seed, tracing ? { tracing } : {});
            for (const p of plugins) p.watchTarget?.(target);
            return target;
          },
        };
        return await run(output.listener, eventStore ? { eventStore } : {}, targets);
      } finally {
        await output.close();
      }
    });
  } finally {
    for (const p of plugins) await p.close().catch(() => undefined);
  }
}
