/**
 * The one exit site: parses argv, runs a command, maps every outcome to an
 * exit code (0 ok, 1 gate failed, 2 usage, 3 runtime, 130 interrupted).
 */
import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { isArenaError, errorMessage } from '../shared/errors.js';
import type { CliContext } from './context.js';
import { registerCommands } from './commands/index.js';

const require = createRequire(import.meta.url);
const pkg = require('../../package.json') as { version: string };

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('arena')
    .description('Inject real faults into an agent runtime, measure how it recovers, score its resilience')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    });
  registerCommands(program, ctx);
  return program;
}

export async function runWith(argv: string[], ctx: CliContext): Promise<number> {
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    return exitCodeFor(err, ctx);
  }
}

function exitCodeFor(err: unknown, ctx: CliContext): number {
  if (err instanceof CommanderError) {
    // help and version exit 0; every parse error is a usage error (2), not commander's 1
    if (err.exitCode === 0 || err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0;
    return 2;
  }
  if (isArenaError(err)) {
    // a gate failure was already explained by the command's report; others are said here
    if (err.exitCode !== 1 || err.message) ctx.stderr.write(`arena: ${err.message}\n`);
    if (err.hint) ctx.stderr.write(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  ctx.stderr.write(`arena: unexpected error: ${errorMessage(err)}\n`);
  if (ctx.env.ARENA_DEBUG && err instanceof Error && err.stack) ctx.stderr.write(`${err.stack}\n`);
  return 3;
}

/** Entry for bin/arena.js: wires the real process streams and signals. */
export async function run(argv: string[]): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    interrupts++;
    if (interrupts > 1) {
      process.stderr.write('arena: interrupted again, exiting now\n');
      process.exit(130);
    }
    process.stderr.write(`arena: ${signal} received, stopping and reverting active faults (press Ctrl-C again to exit now)\n`);
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Runtime and clock timers are unref'd so a library user's process can exit; the CLI,
  // though, must stay alive until its command settles, or node exits 0 mid-run.
  const keepAlive = setInterval(() => {}, 1 << 30);
  try {
    return await runWith(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      cwd: process.cwd(),
      signal: controller.signal,
    });
  } finally {
    clearInterval(keepAlive);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
