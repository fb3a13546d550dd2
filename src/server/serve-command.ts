/** What `arena serve` does once its options are parsed (kept out of the command file so it loads lazily). */
import { UsageError } from '../shared/errors.js';
import { keepAliveWhile } from '../shared/keep-alive.js';
import { bootstrap, type BootstrapConfig } from '../bootstrap/index.js';
import { loadStrategyFile } from '../runtime/strategy.js';
import { parsePort } from '../shared/port.js';
import { checkBind, serveRoot } from './serve.js';
import { assertUsableApiKey } from '../shared/api-key.js';
import { storeKind, storeSpec } from '../events/store-spec.js';
import { registerServe } from './serve-registration.js';
import type { Tracing } from '../shared/otlp/tracing.js';
import type { FaultListener } from './arena-handler.js';

export interface ServeCommandOptions {
  host: string;
  port: string | number;
  apiKey?: string;
  allowedOrigin?: string[];
  seed?: string;
  store?: string;
  strategy?: string;
  /** a target file to serve instead of the embedded runtime */
  target?: string;
  /** patch the runtime's strategy live from faults it did not recover from (off by default) */
  evolve?: boolean;
  /**
   * `--otlp`: a span per run the server starts and per fault in it, a span per fault injected one by
   * one through the fault routes, and the GenAI spans of a process target's LLM proxies
   */
  tracing?: Tracing;
}

export interface ServeIO {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** where serve was started, shown by arena ps (default process.cwd()) */
  cwd?: string;
}

export async function runServe(opts: ServeCommandOptions, io: ServeIO): Promise<void> {
  const port = parsePort(opts.port);
  const apiKey = opts.apiKey ?? (io.env.ARENA_API_KEY || undefined);
  // before the bind check: a blank key must not count as "a key is set"
  if (apiKey !== undefined) assertUsableApiKey(apiKey, opts.apiKey !== undefined ? '--api-key' : 'ARENA_API_KEY');
  checkBind(opts.host, apiKey);
  let seed: number | undefined;
  if (opts.seed !== undefined) {
    if (!/^\d+$/.test(opts.seed))
      throw new UsageError(`--seed must be a non-negative integer, got "${opts.seed}"`, { code: 'invalid_seed' });
    seed = Number(opts.seed);
  }
  for (const origin of opts.allowedOrigin ?? []) {
    if (!/^https?:\/\/[^/]+$/.test(origin))
      throw new UsageError(`--allowed-origin must be an origin such as http://localhost:3000, got "${origin}"`, {
        code: 'invalid_origin',
      });
  }
  const strategy = opts.strategy ? await loadStrategyFile(opts.strategy) : undefined;
  let targetFactory: BootstrapConfig['targetFactory'];
  if (opts.target !== undefined) {
    const { loadTargetFile } = await import('../targets/file.js');
    const loaded = await loadTargetFile(opts.target);
    if (strategy !== undefined && loaded.kind !== 'embedded')
      throw new UsageError(`--strategy applies to the embedded runtime only; ${opts.target} is kind ${loaded.kind}`, {
        code: 'strategy_not_applicable',
      });
    const target = await loaded.create({
      ...(seed !== undefined ? { seed } : {}),
      ...(strategy !== undefined ? { strategy } : {}),
      env: io.env,
      ...(opts.tracing ? { tracing: opts.tracing } : {}),
    });
    targetFactory = () => target;
  }
  const eventStore = eventStoreConfig(storeSpec(opts.store, io.env));
  // loaded only with --otlp: spans per run and fault, and per fault injected on its own
  let traced: { runListener: BootstrapConfig['runListener']; onFault: FaultListener } | undefined;
  if (opts.tracing) {
    const { traceRuns, traceFaults } = await import('../bootstrap/run-tracing.js');
    traced = { runListener: traceRuns(opts.tracing), onFault: traceFaults(opts.tracing) };
  }
  const root = await bootstrap({
    ...(targetFactory ? { targetFactory } : {}),
    ...(seed === undefined ? {} : { seed }),
    ...(strategy ? { strategy } : {}),
    ...(eventStore ? { eventStore } : {}),
    evolve: opts.evolve === true,
    ...(traced ? { runListener: traced.runListener } : {}),
  });
  await root.start();
  let server: Awaited<ReturnType<typeof serveRoot>>;
  try {
    server = await serveRoot(root, {
      host: opts.host,
      port,
      ...(apiKey ? { apiKey } : {}),
      ...(opts.allowedOrigin ? { allowedOrigins: opts.allowedOrigin } : {}),
      ...(traced ? { onFault: traced.onFault } : {}),
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (err) {
    await root.stop().catch(() => undefined);
    throw err;
  }
  io.stdout.write(
    `arena: serving on ${server.url} (auth: ${server.isAuthEnabled ? 'on, X-API-Key required' : 'off'})\n`,
  );
  io.stdout.write(
    `arena: route groups: ${server.app.groups.join(', ')}${server.app.missing.length ? `; not available in this build: ${server.app.missing.join(', ')}` : ''}\n`,
  );
  io.stdout.write(`arena: web console at ${server.url}/${server.isAuthEnabled ? ' (it asks for the API key)' : ''}\n`);
  io.stdout.write(
    opts.evolve
      ? 'arena: live evolution ON: applied faults the runtime does not recover from within 10 s patch its recovery strategy (GET /arena/evolution)\n'
      : 'arena: live evolution off: the recovery strategy changes only when you ask (--evolve to let unrecovered faults patch it)\n',
  );
  const registration = registerServe(
    io.env,
    { cwd: io.cwd ?? process.cwd(), url: server.url },
    (why) => root.services.emergencyStop(why),
    (line) => io.stderr.write(`${line}\n`),
  );
  if (registration)
    io.stdout.write(`arena: run ${registration.runId} (arena stop ${registration.runId} stops its runs)\n`);
  io.stdout.write('arena: press Ctrl-C to stop\n');

  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  registration?.close();
  io.stderr.write('arena: stopping: closing streams, reverting faults\n');
  // the runtime's timers are unref'd: once the server is closed nothing else would keep
  // the process alive until the stop sequence (which waits on those timers) has finished
  const failures: unknown[] = [];
  await keepAliveWhile(async () => {
    await server.close('server is shutting down').catch((e: unknown) => failures.push(e));
    await root.stop().catch((e: unknown) => failures.push(e));
  });
  if (failures.length > 0) throw failures[0];
  io.stdout.write('arena: stopped\n');
}

/** `--store` (or ARENA_STORE) as bootstrap config: none → memory, a postgres:// URL, or a SQLite file */
function eventStoreConfig(spec: string | undefined): BootstrapConfig['eventStore'] {
  if (spec === undefined) return undefined;
  if (spec.trim() === '')
    throw new UsageError('--store needs a SQLite file path, a postgres:// URL or "memory"', { code: 'invalid_store' });
  const kind = storeKind(spec);
  if (kind === 'memory') return { kind };
  return kind === 'postgres' ? { kind, url: spec.trim() } : { kind, path: spec };
}
