import type { RunEventListener } from '../../arena/report.js';
import type { CliContext } from '../context.js';
import type { OutputMode } from '../output/mode.js';
import { openRunOutput } from '../output/run-output.js';
import { attachPlugins } from '../run-plugins.js';

/** opens the view/plain reporter and plugins around a run, closing them whatever happens */
export async function runWithOutput<T>(
  ctx: CliContext,
  opts: object,
  mode: OutputMode,
  run: (onEvent: RunEventListener) => Promise<T>,
): Promise<T> {
  const output = await openRunOutput(ctx, mode);
  const plugins = await attachPlugins(opts as Record<string, unknown>, ctx);
  for (const p of plugins) output.addListener(p.listener);
  // the engine's clock timers are unref'd: hold the event loop open while the run is awaited
  const keepAlive = setInterval(() => undefined, 60_000);
  try {
    return await run(output.listener);
  } finally {
    clearInterval(keepAlive);
    await output.close();
    for (const p of plugins) await p.close().catch(() => undefined);
  }
}

