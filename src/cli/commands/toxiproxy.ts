/** `arena toxiproxy`: Toxiproxy's REST API over the arena's TCP proxy (DESIGN §17). */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples, parseSeed } from './options.js';

export function registerToxiproxyCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('toxiproxy')
    .description(
      "Serve Toxiproxy's REST API (proxies, toxics, populate, reset, version, metrics) so Toxiproxy clients and suites run unchanged, with seeded toxicity",
    )
    .option('--host <host>', 'address the API binds (default 127.0.0.1; any other needs an API key)', '127.0.0.1')
    .option('--port <port>', "port of the API (Toxiproxy's 8474; 0 picks a free one)", '8474')
    .option(
      '--seed <n>',
      'seed of toxicity picks, jitter and slicing: the same seed picks the same connections',
      parseSeed,
    )
    .option('--config <file>', 'JSON array of proxies to create at start, as POST /populate takes them')
    .option('--api-key <key>', 'require this X-API-Key on every route (or set ARENA_API_KEY); needed off loopback');
  examples(command, [
    'arena toxiproxy',
    'arena toxiproxy --port 0 --seed 7 --config config/toxiproxy.json',
    'curl -s -d \'{"name":"redis","listen":"127.0.0.1:26379","upstream":"127.0.0.1:6379"}\' 127.0.0.1:8474/proxies',
    'curl -s -d \'{"type":"latency","stream":"upstream","toxicity":0.5,"attributes":{"latency":1000}}\' 127.0.0.1:8474/proxies/redis/toxics',
  ]);
  command.action(async (opts) => {
    const { runToxiproxy } = await import('../run/run-toxiproxy.js');
    await runToxiproxy(opts, ctx);
  });
}
