/**
 * The one exit site: parses argv, runs a command, maps every outcome to an
 * exit code (0 ok, 1 gate failed, 2 usage, 3 runtime, 130 interrupted).
 */
import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import { isArenaError, errorMessage, StoppedError } from '../shared/errors.js';
import { stopRequestFor } from '../shared/runs/registry.js';
import { keepAliveWhile } from '../shared/keep-alive.js';
import type { CliContext } from './context.js';
import { registerCommands } from './commands/index.js';
import { examples } from './commands/options.js';

const require = createRequire(import.meta.url);
const pkg = require('../../package.json') as { version: string };

/**
 * The program with the commands `argv` needs declared (see registerCommands); all of them when argv
 * is undefined.
 */
export async function buildProgram(ctx: CliContext, argv?: readonly string[]): Promise<Command> {
  const program = new Command('arena')
    .description('Inject real faults into an agent runtime, measure how it recovers, score its resilience')
    .version(pkg.version, '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    });
  // `--version` is answered by the root before any command is looked at
  if (!(argv !== undefined && VERSION_FLAGS.has(argv[0] ?? ''))) await registerCommands(program, ctx, argv);
  examples(program, [
    'arena scenario run scenarios/leader-failover.yaml',
    'arena survival --duration 60s --min-score 80 --json > report.json',
    'arena regress --baseline strategies/default.yaml --candidate strategies/recovery-off.yaml',
    'arena serve --port 8080 --api-key "$ARENA_API_KEY"',
  ]);
  program.addHelpText('after', ROOT_HELP_FOOTER);
  return program;
}

const VERSION_FLAGS = new Set(['-v', '--version']);

/** what a CI script needs to know without reading the README */
const ROOT_HELP_FOOTER = `
Exit codes:
  0    passed
  1    a gate failed (an expectation not met, score under --min-score, a significant regression)
  2    invalid input or usage
  3    runtime error
  130  interrupted (faults reverted, partial report written)

Environment:
  NO_COLOR                    no colours
  FORCE_COLOR                 colours even when output is piped (0 turns them off)
  CI                          no live view, no spinners: one plain line per event
  ARENA_API_KEY               the API key of \`arena serve\` (or --api-key-file)
  ARENA_STORE                 the event store when --store is not given: memory, a SQLite file or a postgres:// URL
  ARENA_TARGET_TOKEN          the bearer token of \`arena target serve|check\` (or --token-file)
  ARENA_PROXY_TOKEN           the control port token of \`arena proxy tcp|llm|mcp\` (or --token-file)
  ARENA_STATE_DIR             the run directory arena ps and arena stop read is $ARENA_STATE_DIR/runs
                              (default $XDG_STATE_HOME/chaos-arena/runs or ~/.local/state/chaos-arena/runs)
  ARENA_DEBUG                 print the stack of an unexpected error
  NODE_COMPILE_CACHE          where Node >= 22.1 keeps its compile cache (default: node-compile-cache in the temp dir)
  NODE_DISABLE_COMPILE_CACHE  no compile cache

Shell completion: arena completion bash|zsh|fish
`;

export async function runWith(argv: string[], ctx: CliContext): Promise<number> {
  try {
    const program = await buildProgram(ctx, argv);
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
    // `arena stop` leaves a stop file before its SIGTERM: the run then ends as `stopped`, not `interrupted`,
    // and a second `arena stop` while it reverts is no "press again to exit now" (that would skip the revert)
    const stop = signal === 'SIGTERM' ? stopRequestFor(process.env, process.pid) : undefined;
    if (stop) {
      if (controller.signal.aborted) return;
      interrupts++;
      process.stderr.write(`arena: arena stop (pid ${stop.by_pid}) received, stopping and reverting active faults\n`);
      controller.abort(new StoppedError(`arena stop from pid ${stop.by_pid}`));
      return;
    }
    interrupts++;
    if (interrupts > 1) {
      process.stderr.write('arena: interrupted again, exiting now\n');
      process.exit(130);
    }
    process.stderr.write(
      `arena: ${signal} received, stopping and reverting active faults (press Ctrl-C again to exit now)\n`,
    );
    controller.abort(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Runtime and clock timers are unref'd so a library user's process can exit; the CLI,
  // though, must stay alive until its command settles, or node exits 0 mid-run.
  try {
    return await keepAliveWhile(() =>
      runWith(argv, {
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
        cwd: process.cwd(),
        signal: controller.signal,
      }),
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
