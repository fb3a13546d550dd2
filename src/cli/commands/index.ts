import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { type CommandEntry, registerTable } from './lazy.js';

/** Each command lives in its own file; this table names it and says how to load it (help order). */
const COMMANDS: readonly CommandEntry[] = [
  { name: 'regress', load: async () => (await import('./regress.js')).registerRegressCommand },
  { name: 'describe', load: async () => (await import('./describe.js')).registerDescribeCommand },
  { name: 'scenario', load: async () => (await import('./scenario.js')).registerScenarioCommand },
  { name: 'survival', load: async () => (await import('./survival.js')).registerSurvivalCommand },
  { name: 'serve', load: async () => (await import('./serve.js')).registerServeCommand },
  { name: 'replay', load: async () => (await import('./replay.js')).registerReplayCommand },
  { name: 'flight', load: async () => (await import('./flight.js')).registerFlightCommand },
  { name: 'evolve', load: async () => (await import('./evolve.js')).registerEvolveCommand },
  { name: 'proxy', load: async () => (await import('./proxy.js')).registerProxyCommand },
  { name: 'toxiproxy', load: async () => (await import('./toxiproxy.js')).registerToxiproxyCommand },
  { name: 'target', load: async () => (await import('./target.js')).registerTargetCommand },
  { name: 'schema', load: async () => (await import('./schema.js')).registerSchemaCommand },
  { name: 'shrink', load: async () => (await import('./shrink.js')).registerShrinkCommand },
  { name: 'trials', load: async () => (await import('./trials.js')).registerTrialsCommand },
  { name: 'worker', load: async () => (await import('./worker.js')).registerWorkerCommand },
  { name: 'ps', load: async () => (await import('./ps.js')).registerPsCommand },
  { name: 'stop', load: async () => (await import('./ps.js')).registerStopCommand },
  { name: 'completion', load: async () => (await import('./completion.js')).registerCompletionCommand, needsAll: true },
];

/**
 * Declares the commands `argv` (the user's words) needs: the invoked command only, or all of them
 * when argv is undefined or names none (root help, completion, suggestions for a typo).
 */
export async function registerCommands(program: Command, ctx: CliContext, argv?: readonly string[]): Promise<void> {
  await registerTable(program, ctx, COMMANDS, argv);
}
