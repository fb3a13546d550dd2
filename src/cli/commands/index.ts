import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerScenarioCommand } from './scenario.js';
import { registerSurvivalCommand } from './survival.js';
import { registerReplayCommand } from './replay.js';
import { registerRegressCommand } from './regress.js';
import { registerDescribeCommand } from './describe.js';
import { registerFlightCommand } from './flight.js';
import { registerEvolveCommand } from './evolve.js';
import { registerServeCommand } from './serve.js';
import { registerProxyCommand } from './proxy.js';
import { registerTargetCommand } from './target.js';
import { registerSchemaCommand } from './schema.js';
import { registerWorkerCommand } from './worker.js';
import { registerCompletionCommand } from './completion.js';

/** Each command lives in its own file and registers itself here. */
export function registerCommands(program: Command, ctx: CliContext): void {
  void program;
  void ctx;
  registerRegressCommand(program, ctx);
  registerDescribeCommand(program, ctx);
  registerScenarioCommand(program, ctx);
  registerSurvivalCommand(program, ctx);
  registerServeCommand(program, ctx);
  registerReplayCommand(program, ctx);
  registerFlightCommand(program, ctx);
  registerEvolveCommand(program, ctx);
  registerProxyCommand(program, ctx);
  registerTargetCommand(program, ctx);
  registerSchemaCommand(program, ctx);
  registerWorkerCommand(program, ctx);
  registerCompletionCommand(program, ctx);
}
