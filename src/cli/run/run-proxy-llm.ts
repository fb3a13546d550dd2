/**
 * What `arena proxy llm` does once its flags are parsed: start the proxy
 * (and its control port), apply the `--fault` given at start, say where
 * everything listens, run until SIGINT/SIGTERM, then revert, print what
 * each client did and stop. Loaded lazily by commands/proxy-llm.ts.
 */
import { MAX_DURATION_MS, ProtocolError } from '../../protocol/wire.js';
import type { LlmControl } from '../../proxies/llm/control.js';
import type { LlmProxy } from '../../proxies/llm/proxy.js';
import { UsageError } from '../../shared/errors.js';
import { parsePort } from '../../shared/port.js';
import { formatDuration, parseDuration } from '../../shared/duration.js';
import { createRandom, randomSeed } from '../../shared/random.js';
import type { CliContext } from '../context.js';
import { readProxyToken } from '../secrets.js';
import { openTracing } from '../commands/otlp.js';

/** the flag each fault parameter comes from, so an error names what the user typed */
const FLAG_OF: Record<string, string> = {
  error_type: '--fault',
  first_n: '--first-n',
  probability: '--probability',
  match: '--match',
  retry_after_s: '--retry-after',
  after_events: '--after-events',
  keep: '--keep',
  delay_ms: '--delay-ms',
  chunk_delay_ms: '--chunk-delay-ms',
  requests_per_min: '--requests-per-min',
  tokens_per_min: '--tokens-per-min',
  to_model: '--to-model',
};

/** the flags of `arena proxy llm` as commander parsed them (commands/proxy-llm.ts declares them) */
export interface ProxyLlmOptions {
  upstream: string;
  api: string;
  listen: string;
  control?: string;
  token?: string;
  tokenFile?: string;
  fault?: string;
  firstN?: string;
  probability?: string;
  match?: string;
  retryAfter?: string;
  afterEvents?: string;
  keep?: string;
  delayMs?: string;
  chunkDelayMs?: string;
  requestsPerMin?: string;
  tokensPerMin?: string;
  toModel?: string;
  duration?: string;
  seed?: number;
  otlp?: string;
}

export async function runProxyLlm(opts: ProxyLlmOptions, ctx: CliContext): Promise<void> {
  const listen = parsePort(opts.listen, '--listen');
  const controlPort = opts.control === undefined ? undefined : parsePort(opts.control, '--control');
  const params = faultParams(opts);
  const seed = opts.seed ?? randomSeed();
  const token = readProxyToken(opts, ctx);

  const { startLlmProxy } = await import('../../proxies/llm/proxy.js');
  const { startLlmControl } = await import('../../proxies/llm/control.js');
  const { parseLlmFault } = await import('../../proxies/llm/fault-spec.js');
  // checked before anything listens: a bad --fault changes nothing
  if (params) toUsageError(() => parseLlmFault('llm_failure', params));

  const traced = await openTracing(opts.otlp, ctx, 'chaos-arena-llm-proxy');
  let proxy: LlmProxy;
  try {
    proxy = await startLlmProxy({
      listen,
      upstream: opts.upstream,
      api: opts.api as 'openai' | 'anthropic' | 'auto',
      random: createRandom(seed),
      ...(traced ? { tracing: traced.tracing } : {}),
    });
  } catch (err) {
    await traced?.close();
    throw err;
  }
  let control: LlmControl;
  try {
    control = await startLlmControl({
      proxy,
      ...(controlPort === undefined ? {} : { listen: controlPort }),
      ...(token === undefined ? {} : { token }),
      onRevert: (fault, reason, error) =>
        ctx.stderr.write(
          `arena: fault ${fault.id} ended (${reason})${error ? `, revert failed: ${String(error)}` : ''}\n`,
        ),
    });
  } catch (err) {
    await proxy.close();
    await traced?.close();
    throw err;
  }
  ctx.stdout.write(`arena: llm proxy on ${proxy.url} -> ${proxy.upstream.href} (api: ${proxy.api})\n`);
  if (control.server)
    ctx.stdout.write(
      `arena: control on ${control.server.url} (POST/GET /v1/faults, DELETE /v1/faults/{id}, POST /v1/leases, POST /v1/reset, GET /v1/stats, GET /v1/calls; auth: ${token === undefined ? 'off' : 'on, Bearer token required'})\n`,
    );
  ctx.stdout.write(`arena: seed ${seed}\n`);
  if (params) {
    const durationMs = opts.duration === undefined ? undefined : parseDuration(opts.duration);
    // nobody renews a fault given on the command line: it holds until its duration or the proxy stops
    const { body } = await control.registry.add({
      id: 'cli-fault',
      type: 'llm_failure',
      params,
      lease_ms: MAX_DURATION_MS,
      ...(durationMs === undefined ? {} : { duration_ms: durationMs }),
    });
    const options = Object.entries(body.report)
      .filter(([k]) => ['first_n', 'probability', 'match', 'retry_after_s', 'after_events'].includes(k))
      .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
    ctx.stdout.write(
      `arena: fault ${String(body.report.error_type)} active${options.length ? ` (${options.join(', ')})` : ''}${durationMs === undefined ? '' : ` for ${formatDuration(durationMs)}`}\n`,
    );
  }
  ctx.stdout.write('arena: press Ctrl-C to stop\n');

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  ctx.stderr.write('arena: stopping: reverting faults, closing connections\n');
  await control.close();
  const stats = proxy.stats();
  await proxy.close();
  // the last spans go out once every request has ended (bounded: a collector that is not there cannot hold the exit)
  await traced?.close();
  ctx.stdout.write(
    `arena: ${stats.requests} requests, ${stats.passed} passed, injected ${JSON.stringify(stats.errors_injected)}, ${stats.upstream_failures} upstream failures, tokens ${stats.tokens.input} in / ${stats.tokens.output} out (${stats.tokens.answers_without_usage} answers without usage)\n`,
  );
  for (const c of stats.clients) {
    const honoured =
      c.retry_after_honoured === null
        ? 'no retry-after retries'
        : c.retry_after_honoured
          ? 'retry-after honoured'
          : `retry-after NOT honoured (${c.retry_after.early} early)`;
    ctx.stdout.write(`arena:   ${c.client}: ${c.requests} requests, ${c.retries} retries, ${honoured}\n`);
  }
  ctx.stdout.write('arena: stopped\n');
}

function faultParams(opts: ProxyLlmOptions): Record<string, unknown> | undefined {
  const needsFault: Array<[unknown, string]> = [
    [opts.firstN, '--first-n'],
    [opts.probability, '--probability'],
    [opts.match, '--match'],
    [opts.retryAfter, '--retry-after'],
    [opts.afterEvents, '--after-events'],
    [opts.keep, '--keep'],
    [opts.delayMs, '--delay-ms'],
    [opts.chunkDelayMs, '--chunk-delay-ms'],
    [opts.requestsPerMin, '--requests-per-min'],
    [opts.tokensPerMin, '--tokens-per-min'],
    [opts.toModel, '--to-model'],
    [opts.duration, '--duration'],
  ];
  if (opts.fault === undefined) {
    const given = needsFault.find(([v]) => v !== undefined);
    if (given) throw new UsageError(`${given[1]} needs --fault ERROR_TYPE`, { code: 'invalid_flags' });
    return undefined;
  }
  const params: Record<string, unknown> = { error_type: opts.fault };
  if (opts.firstN !== undefined) params.first_n = number(opts.firstN, '--first-n');
  if (opts.probability !== undefined) params.probability = number(opts.probability, '--probability');
  if (opts.match !== undefined) params.match = opts.match;
  if (opts.retryAfter !== undefined) params.retry_after_s = number(opts.retryAfter, '--retry-after');
  if (opts.afterEvents !== undefined) params.after_events = number(opts.afterEvents, '--after-events');
  if (opts.keep !== undefined) params.keep = number(opts.keep, '--keep');
  if (opts.delayMs !== undefined) params.delay_ms = number(opts.delayMs, '--delay-ms');
  if (opts.chunkDelayMs !== undefined) params.chunk_delay_ms = number(opts.chunkDelayMs, '--chunk-delay-ms');
  if (opts.requestsPerMin !== undefined) params.requests_per_min = number(opts.requestsPerMin, '--requests-per-min');
  if (opts.tokensPerMin !== undefined) params.tokens_per_min = number(opts.tokensPerMin, '--tokens-per-min');
  if (opts.toModel !== undefined) params.to_model = opts.toModel;
  return params;
}

function number(text: string, flag: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`${flag}: expected a number, got ${JSON.stringify(text)}`, { code: 'invalid_flags' });
  return n;
}

/** the fault parser speaks the wire (`params.first_n: …`); on the command line the same error names the flag */
function toUsageError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    const message = err.message.replace(/^params\.(\w+)/, (_m, key: string) => FLAG_OF[key] ?? `params.${key}`);
    throw new UsageError(message, { code: 'invalid_fault' });
  }
}
