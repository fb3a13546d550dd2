/**
 * `arena target serve|check`: the Arena Target Protocol's reference server
 * (any target exposed over HTTP) and its conformance kit (DESIGN §9.2).
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples, parseSeed } from './options.js';

export function registerTargetCommand(program: Command, ctx: CliContext): void {
  const target = program
    .command('target')
    .description('Serve a target over the Arena Target Protocol, or check that a server speaks it');
  examples(target, [
    'arena target serve --port 9500',
    'arena target serve --target my-agents.yaml --port 0',
    'arena target check http://127.0.0.1:9500 --token-file token.txt',
  ]);

  const serve = target
    .command('serve')
    .description(
      'Expose the embedded runtime (or any target file) through the Arena Target Protocol v1; faults whose lease runs out are reverted',
    )
    .option('--port <port>', 'port to listen on; 0 picks a free one', '9500')
    .option('--host <host>', 'address to bind (non-loopback needs a token)', '127.0.0.1')
    .option(
      '--token <token>',
      'require Authorization: Bearer TOKEN on every route (visible in ps: prefer ARENA_TARGET_TOKEN or --token-file)',
    )
    .option('--token-file <file>', 'read the token from this file (its only content)')
    .option('--target <file>', 'serve this target file instead of the embedded runtime')
    .option('--strategy <file>', 'recovery strategy YAML for the embedded runtime')
    .option('--seed <n>', 'seed of the embedded runtime', parseSeed);
  examples(serve, [
    'arena target serve --port 9500',
    'ARENA_TARGET_TOKEN=s3cret arena target serve --port 9500 --strategy strategies/recovery-off.yaml',
    'arena target serve --target my-agents.yaml --port 0',
  ]);
  serve.action(async (opts) => {
    const { targetServeCommand } = await import('../run/target-serve.js');
    await targetServeCommand(opts, ctx);
  });

  const check = target
    .command('check')
    .description(
      'Check that a server speaks the Arena Target Protocol v1: every route, idempotent ids, DELETE, leases, error codes, the token; exit 0 all pass, 1 some fail',
    )
    .argument('<url>', 'the server, e.g. http://127.0.0.1:9500')
    .option(
      '--token <token>',
      'the bearer token the server expects (or ARENA_TARGET_TOKEN, or --token-file); also checks that a missing or wrong one is refused',
    )
    .option('--token-file <file>', 'read the token from this file (its only content)')
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colours');
  examples(check, [
    'arena target check http://127.0.0.1:9500',
    'arena target check http://127.0.0.1:9500 --token s3cret --json',
  ]);
  check.action(async (url: string, opts) => {
    const { targetCheckCommand } = await import('../run/target-check.js');
    await targetCheckCommand(url, opts, ctx);
  });
}
