/**
 * Extension point of the run commands (`scenario run`, `survival`, `replay`):
 * a plugin adds options and, when its option is given, a RunEvent listener.
 * `--serve [PORT]` (H-server) plugs in here with one line in RUN_PLUGINS.
 */
import type { Command } from 'commander';
import type { RunEventListener } from '../arena/report.js';
import type { EventStore } from '../arena/event-store.js';
import type { CliContext } from './context.js';
import { storeRunPlugin } from './commands/flight.js';
import { servePlugin } from './commands/serve.js';

export interface AttachedPlugin {
  listener: RunEventListener;
  /** set by --store: the run's arena service appends its event stream (`arena`) here too */
  eventStore?: EventStore;
  close(): Promise<void>;
}

export interface RunPlugin {
  name: string;
  /** declares the plugin's options on a run command */
  addOptions(command: Command): void;
  /** called before the run with the parsed options; undefined when the plugin is not enabled */
  attach(options: Record<string, unknown>, ctx: CliContext): Promise<AttachedPlugin | undefined>;
}

export const RUN_PLUGINS: RunPlugin[] = [storeRunPlugin, servePlugin];

export function addPluginOptions(command: Command): Command {
  for (const p of RUN_PLUGINS) p.addOptions(command);
  return command;
}

export async function attachPlugins(options: Record<string, unknown>, ctx: CliContext): Promise<AttachedPlugin[]> {
  const attached: AttachedPlugin[] = [];
  for (const p of RUN_PLUGINS) {
    const a = await p.attach(options, ctx);
    if (a) attached.push(a);
  }
  return attached;
}
