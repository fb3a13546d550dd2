/** `arena proxy tcp`: the TCP fault proxy standalone (DESIGN §10.1). */
import { Option, type Command } from 'commander';
import { TCP_FAULT_TYPES } from '../../proxies/tcp/fault-spec.js';
import { offerValues } from '../completion/tree.js';
import type { CliContext } from '../context.js';
import { examples, parseDurationOption, parseSeed } from './options.js';

export function registerProxyTcpCommand(proxy: Command, ctx: CliContext): void {
  const command = proxy
    .command('tcp')
    .description('A TCP proxy that adds latency, blackholes, resets, throttles or times out connections to an upstream')
    .requiredOption('--listen <port>', 'port to accept connections on (0 = a free one, printed)')
    .requiredOption('--upstream <host:port>', 'where connections are forwarded')
    .option(
      '--control <port>',
      'serve the fault routes (POST/GET /v1/faults, DELETE /v1/faults/{id}, POST /v1/leases, POST /v1/reset, GET /v1/stats) on this loopback port',
    )
    .option('--host <host>', 'address the proxy listens on (default 127.0.0.1)')
    .option(
      '--token <token>',
      'require Authorization: Bearer TOKEN on the control port (visible in ps: prefer ARENA_PROXY_TOKEN or --token-file)',
    )
    .option('--token-file <file>', 'read the control port token from this file (its only content)')
    .addOption(
      offerValues(
        new Option('--fault <type>', `apply this fault at start: ${TCP_FAULT_TYPES.join(', ')} (repeatable)`).argParser(
          (v: string, all: string[] = []) => [...all, v],
        ),
        TCP_FAULT_TYPES,
      ),
    )
    .option(
      '--latency <duration>',
      'with --fault latency: delay added to every chunk, each direction',
      parseDurationOption,
    )
    .option('--jitter <duration>', 'with --fault latency: ± random spread around --latency', parseDurationOption)
    .option('--bandwidth <bytes_per_s>', 'with --fault bandwidth: bytes per second, each direction')
    .option(
      '--timeout <duration>',
      'with --fault timeout: hold data, close connections after this long (0 = never close)',
      parseDurationOption,
    )
    .option('--probability <p>', 'chance, per connection, that the start faults act on it (0 to 1, default 1)')
    .option(
      '--duration <duration>',
      'the start faults end after this long (default: until stopped)',
      parseDurationOption,
    )
    .option('--seed <n>', 'seed for --probability picks and jitter', parseSeed);
  examples(command, [
    'arena proxy tcp --listen 7001 --upstream 127.0.0.1:7101 --control 7002',
    'arena proxy tcp --listen 7001 --upstream 127.0.0.1:7101 --fault latency --latency 100ms --jitter 10ms --duration 30s',
    'arena proxy tcp --listen 7001 --upstream db.local:5432 --fault bandwidth --bandwidth 65536 --fault reset --probability 0.1 --seed 7',
    'curl -X POST http://127.0.0.1:7002/v1/faults -d \'{"id":"slow","type":"latency","params":{"latency_ms":200},"lease_ms":60000}\'',
  ]);
  command.action(async (opts) => {
    const { runProxyTcp } = await import('../run/run-proxy-tcp.js');
    await runProxyTcp(opts, ctx);
  });
}
