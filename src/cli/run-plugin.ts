/** What a run-command plugin is (the registry of them is ./run-plugins.ts). */
import type { Command } from 'commander';
import type { RunEventListener } from '../arena/report.js';
import type { EventStore } from '../arena/event-store.js';
import type { Target } from '../arena/providers.js';
import type { Tracing } from '../shared/otlp/tracing.js';
import type { CliContext } from './context.js';

export interface AttachedPlugin {
  listener: RunEventListener;
  /** set by --store: the run's arena service appends its event stream (`arena`) here too */
  eventStore?: EventStore;
  /** set by --otlp: the run's target traces with it too (the LLM proxies a process target starts) */
  tracing?: Tracing;
  /** told each target the run builds, before it starts (--serve: its LLM tokens and workload counters) */
  watchTarget?(target: Target): void;
  close(): Promise<void>;
}

export interface RunPlugin {
  name: string;
  /** declares the plugin's options on a run command */
  addOptions(command: Command): void;
  /** called before the run with the parsed options; undefined when the plugin is not enabled */
  attach(options: Record<string, unknown>, ctx: CliContext): Promise<AttachedPlugin | undefined>;
}
