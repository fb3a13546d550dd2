/**
 * What `arena toxiproxy` does once its flags are parsed: check the bind
 * (loopback needs no key, any other host does), load the config, serve
 * until SIGINT / SIGTERM, then close every proxy and its connections.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startToxiproxyServer } from '../../proxies/toxiproxy/server.js';
import { checkBind } from '../../server/serve.js';
import { parsePort } from '../../shared/port.js';
import { assertUsableApiKey } from '../../shared/api-key.js';
import { UsageError } from '../../shared/errors.js';
import { randomSeed } from '../../shared/random.js';
import type { CliContext } from '../context.js';

export interface ToxiproxyCommandOptions {
  host: string;
  port: string;
  seed?: number;
  config?: string;
  apiKey?: string;
}

export async function runToxiproxy(opts: ToxiproxyCommandOptions, ctx: CliContext): Promise<void> {
  const port = parsePort(opts.port);
  const apiKey = opts.apiKey ?? (ctx.env.ARENA_API_KEY || undefined);
  if (apiKey !== undefined) assertUsableApiKey(apiKey, opts.apiKey !== undefined ? '--api-key' : 'ARENA_API_KEY');
  checkBind(opts.host, apiKey);
  const seed = opts.seed ?? randomSeed();
  let config: { text: string; where: string } | undefined;
  if (opts.config !== undefined) {
    const path = resolve(ctx.cwd, opts.config);
    try {
      config = { text: await readFile(path, 'utf8'), where: `--config ${opts.config}` };
    } catch (err) {
      throw new UsageError(`--config ${opts.config}: cannot read it (${(err as Error).message})`, {
        code: 'invalid_config',
      });
    }
  }
  const server = await startToxiproxyServer({
    host: opts.host,
    port,
    seed,
    ...(apiKey ? { apiKey } : {}),
    ...(config ? { config } : {}),
    onError: (err) =>
      ctx.stderr.write(`arena: toxiproxy: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`),
  });
  try {
    const from = config
      ? `, ${server.populated.length} prox${server.populated.length === 1 ? 'y' : 'ies'} from ${opts.config}`
      : '';
    ctx.stderr.write(
      `arena: toxiproxy API listening on ${server.url} (seed ${seed}, auth ${apiKey ? 'on' : 'off'}${from})\n`,
    );
    await new Promise<void>((done) => {
      if (ctx.signal.aborted) done();
      else ctx.signal.addEventListener('abort', () => done(), { once: true });
    });
  } finally {
    await server.close();
    ctx.stderr.write('arena: toxiproxy stopped, every proxy closed\n');
  }
}
