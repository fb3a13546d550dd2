/**
 * `arena serve`: the HTTP API on a bootstrapped root. Binds loopback by
 * default, refuses any other address without an API key, and on SIGINT /
 * SIGTERM stops gracefully (new requests 503, streams get a final event,
 * faults reverted, root stopped).
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';
import type { RunPlugin } from '../run-plugin.js';
import { parsePort } from '../../shared/port.js';
import type { RunFeed } from '../../server/run-feed.js';
import { addOtlpOption, openTracing } from './otlp.js';

export function registerServeCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('serve')
    .description('Serve the HTTP API (12 route groups, SSE streams) on a target: the embedded runtime unless --target')
    .option('--host <host>', 'address to bind (non-loopback needs an API key)', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', '8080')
    .option(
      '--api-key <key>',
      'require this X-API-Key on every route (visible in ps: prefer ARENA_API_KEY or --api-key-file)',
    )
    .option('--api-key-file <file>', 'read the API key from this file (its only content)')
    .option(
      '--allowed-origin <origin...>',
      'browser origins allowed to call the API besides its own (CORS; e.g. http://localhost:3000); pages on any other origin get 403',
    )
    .option('--seed <n>', 'seed of the runtime and faults')
    .option(
      '--strategy <file>',
      'recovery strategy YAML for the embedded runtime (default: strategies/default.yaml values)',
    )
    .option('--target <file>', 'serve the system this target file describes instead of the embedded runtime')
    .option(
      '--store <file|url>',
      'keep arena events in this SQLite file, or a postgres:// database shared with other servers (the stream resumes across restarts; or set ARENA_STORE)',
    )
    .option(
      '--evolve',
      'let applied faults the runtime does not recover from patch its recovery strategy live (off by default)',
    );
  addOtlpOption(command);
  examples(command, [
    'arena serve',
    'ARENA_API_KEY=s3cret arena serve --port 9000',
    'arena serve --host 0.0.0.0 --api-key-file ~/.arena-key --allowed-origin http://localhost:3000',
    'curl -N -H "X-API-Key: s3cret" http://127.0.0.1:9000/arena/stream',
    'arena serve --evolve   # then GET /arena/evolution shows what live evolution did',
    'arena serve --port 8081 --store postgres://arena@db.internal:5432/arena',
  ]);
  command.action(
    async (opts: {
      host: string;
      port: string;
      apiKey?: string;
      apiKeyFile?: string;
      allowedOrigin?: string[];
      seed?: string;
      store?: string;
      strategy?: string;
      target?: string;
      evolve?: boolean;
      otlp?: string;
    }) => {
      const { runServe } = await import('../../server/serve-command.js');
      const { readSecret } = await import('../secrets.js');
      const { apiKeyFile, otlp, ...rest } = opts;
      const apiKey = readSecret({
        value: opts.apiKey,
        flag: '--api-key',
        file: apiKeyFile,
        fileFlag: '--api-key-file',
        envName: 'ARENA_API_KEY',
        env: ctx.env,
        cwd: ctx.cwd,
      });
      const traced = await openTracing(otlp, ctx, 'chaos-arena');
      try {
        await runServe(
          {
            ...rest,
            ...(apiKey === undefined ? {} : { apiKey }),
            ...(traced ? { tracing: traced.tracing } : {}),
          },
          ctx,
        );
      } finally {
        // after the server stopped: the runs it interrupted have ended their spans
        await traced?.close();
      }
    },
  );
}

/**
 * What `--serve [PORT]` starts, for the run plugin below and `arena shrink`: undefined when the flag is absent.
 * Prints the stream's URL on stderr (with --json, stdout carries only the report).
 */
export async function startServeFeed(value: unknown, ctx: CliContext): Promise<RunFeed | undefined> {
  if (value === undefined || value === false) return undefined;
  const { startRunFeed } = await import('../../server/run-feed.js');
  const port = value === true ? 8080 : parsePort(value, '--serve');
  const apiKey = ctx.env.ARENA_API_KEY || undefined;
  const feed = await startRunFeed({
    port,
    ...(apiKey ? { apiKey } : {}),
    log: (line) => ctx.stderr.write(`${line}\n`),
  });
  ctx.stderr.write(
    `arena: serving run events on ${feed.url}/arena/stream (auth: ${feed.isAuthEnabled ? 'on' : 'off'})\n`,
  );
  return feed;
}

/** `--serve [PORT]` for `arena scenario run` and `arena survival` (a run plugin, see ../run-plugins.ts). */
export const servePlugin: RunPlugin = {
  name: 'serve',
  addOptions(command) {
    command.option(
      '--serve [port]',
      "serve the run's events on http://127.0.0.1:PORT/arena/stream while it runs (default 8080; 0 = a free port; ARENA_API_KEY is honoured)",
    );
  },
  async attach(options, ctx) {
    const feed = await startServeFeed(options.serve, ctx);
    if (!feed) return undefined;
    return { listener: feed.listener, watchTarget: (target) => feed.watchTarget(target), close: () => feed.close() };
  },
};
