/**
 * Extension point of the run commands (`scenario run`, `survival`, `replay`):
 * a plugin adds options and, when its option is given, a RunEvent listener.
 * `--serve [PORT]` (H-server) plugs in here with one line in RUN_PLUGINS. What a plugin
 * is lives in ./run-plugin.ts, below the plugins, so they need not import this registry.
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';
import type { AttachedPlugin, RunPlugin } from './run-plugin.js';
import { storeRunPlugin } from './commands/flight.js';
import { servePlugin } from './commands/serve.js';
import { otlpPlugin } from './commands/otlp.js';

export const RUN_PLUGINS: RunPlugin[] = [storeRunPlugin, servePlugin, otlpPlugin];

export function addPluginOptions(command: Command): Command {
  for (const p of RUN_PLUGINS) p.addOptions(command);
  return command;
}

export async function attachPlugins(options: Record<string, unknown>, ctx: CliContext): Promise<AttachedPlugin[]> {
  const attached: AttachedPlugin[] = [];
  try {
    for (const p of RUN_PLUGINS) {
      const a = await p.attach(options, ctx);
      if (a) attached.push(a);
    }
  } catch (err) {
    // a plugin that cannot start (a bad --otlp URL) closes those already open (a --serve port) before the error ends the run
    for (const a of attached) await a.close().catch(() => undefined);
    throw err;
  }
  return attached;
}
