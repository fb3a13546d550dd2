/**
 * What `arena proxy tcp` does once its flags are parsed: turn the flags into
 * fault requests (every one checked before anything listens), start the
 * proxy and its control port, say where it listens, and run until SIGINT /
 * SIGTERM, then revert every fault and close.
 */
import { MAX_DURATION_MS, ProtocolError, type FaultRequest } from '../../protocol/wire.js';
import { parseHostPort } from '../../proxies/tcp/endpoint.js';
import { parsePort } from '../../shared/port.js';
import { TCP_FAULT_TYPES, isTcpFaultType, parseTcpFault } from '../../proxies/tcp/fault-spec.js';
import { startTcpFaultProxy } from '../../proxies/tcp/control.js';
import { durationProblem, tryParseDuration, formatDuration } from '../../shared/duration.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import { createRandom, randomSeed } from '../../shared/random.js';
import type { CliContext } from '../context.js';
import { readProxyToken } from '../secrets.js';

export interface ProxyTcpOptions {
  listen: string;
  upstream: string;
  control?: string;
  token?: string;
  tokenFile?: string;
  host?: string;
  fault?: string[];
  latency?: string;
  jitter?: string;
  bandwidth?: string;
  timeout?: string;
  probability?: string;
  duration?: string;
  seed?: number;
}

/** which flag carries each fault's params; a param flag without its fault is a mistake worth saying */
const PARAM_FLAGS = { latency: ['--latency', '--jitter'], bandwidth: ['--bandwidth'], timeout: ['--timeout'] } as const;

/** The start faults as protocol requests; throws a UsageError naming the flag. */
export function startFaults(opts: ProxyTcpOptions): FaultRequest[] {
  const types = opts.fault ?? [];
  for (const type of types) {
    if (!isTcpFaultType(type))
      throw new UsageError(`--fault: unknown fault "${type}" (the TCP proxy takes ${TCP_FAULT_TYPES.join(', ')})`, {
        code: 'invalid_fault',
      });
    if (types.indexOf(type) !== types.lastIndexOf(type))
      throw new UsageError(`--fault ${type} is given twice`, { code: 'invalid_fault' });
  }
  const given = {
    '--latency': opts.latency,
    '--jitter': opts.jitter,
    '--bandwidth': opts.bandwidth,
    '--timeout': opts.timeout,
  };
  for (const [type, flags] of Object.entries(PARAM_FLAGS)) {
    for (const flag of flags) {
      if (given[flag] !== undefined && !types.includes(type))
        throw new UsageError(`${flag} needs --fault ${type}`, { code: 'invalid_fault' });
    }
  }
  if (types.length === 0 && (opts.duration !== undefined || opts.probability !== undefined)) {
    throw new UsageError(`${opts.duration !== undefined ? '--duration' : '--probability'} needs a --fault to act on`, {
      code: 'invalid_fault',
    });
  }
  const durationIssue = opts.duration === undefined ? undefined : durationProblem(opts.duration);
  if (durationIssue !== undefined) throw new UsageError(`--duration: ${durationIssue}`, { code: 'invalid_duration' });
  const durationMs = opts.duration === undefined ? undefined : tryParseDuration(opts.duration);
  let probability: number | undefined;
  if (opts.probability !== undefined) {
    probability = Number(opts.probability);
    if (opts.probability.trim() === '' || !Number.isFinite(probability) || probability < 0 || probability > 1) {
      throw new UsageError(`--probability must be a number from 0 to 1, got "${opts.probability}"`, {
        code: 'invalid_probability',
      });
    }
  }
  return types.map((type) => {
    const params: Record<string, unknown> = {};
    if (type === 'latency') {
      if (opts.latency === undefined)
        throw new UsageError('--fault latency needs --latency (e.g. --latency 100ms)', { code: 'invalid_fault' });
      params.latency_ms = tryParseDuration(opts.latency);
      if (opts.jitter !== undefined) params.jitter_ms = tryParseDuration(opts.jitter);
    } else if (type === 'bandwidth') {
      if (opts.bandwidth === undefined)
        throw new UsageError('--fault bandwidth needs --bandwidth BYTES_PER_S (e.g. --bandwidth 65536)', {
          code: 'invalid_fault',
        });
      if (!/^\d+$/.test(opts.bandwidth.trim()))
        throw new UsageError(`--bandwidth must be a whole number of bytes per second, got "${opts.bandwidth}"`, {
          code: 'invalid_fault',
        });
      params.bytes_per_s = Number(opts.bandwidth);
    } else if (type === 'timeout') {
      if (opts.timeout === undefined)
        throw new UsageError('--fault timeout needs --timeout (e.g. --timeout 2s)', { code: 'invalid_fault' });
      params.timeout_ms = tryParseDuration(opts.timeout);
    }
    if (probability !== undefined) params.probability = probability;
    try {
      parseTcpFault({ type, params });
    } catch (err) {
      // the wire names a param (params.latency_ms); a user of the command typed a flag
      if (err instanceof ProtocolError)
        throw new UsageError(
          `--fault ${type}: ${err.message.replace(/^params\.(\w+)/, (_m, key: string) => flagFor(key))}`,
          { code: 'invalid_fault' },
        );
      throw err;
    }
    return {
      id: `start-${type}`,
      type,
      params,
      lease_ms: MAX_DURATION_MS,
      ...(durationMs === undefined ? {} : { duration_ms: durationMs }),
    };
  });
}

function flagFor(param: string): string {
  return (
    {
      latency_ms: '--latency',
      jitter_ms: '--jitter',
      bytes_per_s: '--bandwidth',
      timeout_ms: '--timeout',
      probability: '--probability',
    }[param] ?? param
  );
}

function describeFault(request: FaultRequest): string {
  const p = request.params as Record<string, number>;
  const detail =
    request.type === 'latency'
      ? ` ${formatDuration(p.latency_ms!)}${p.jitter_ms ? `±${formatDuration(p.jitter_ms)}` : ''}`
      : request.type === 'bandwidth'
        ? ` ${p.bytes_per_s} B/s`
        : request.type === 'timeout'
          ? ` ${formatDuration(p.timeout_ms!)}`
          : '';
  const chance = p.probability === undefined ? '' : ` p=${p.probability}`;
  return `${request.type}${detail}${chance}${request.duration_ms === undefined ? '' : ` for ${formatDuration(request.duration_ms)}`}`;
}

export async function runProxyTcp(opts: ProxyTcpOptions, ctx: CliContext): Promise<void> {
  const host = opts.host ?? '127.0.0.1';
  const listenPort = parsePort(opts.listen, '--listen');
  const controlPort = opts.control === undefined ? undefined : parsePort(opts.control, '--control');
  const upstream = parseHostPort(opts.upstream, '--upstream');
  const faults = startFaults(opts);
  const seed = opts.seed ?? randomSeed();
  const token = readProxyToken(opts, ctx);

  const running = await startTcpFaultProxy({
    listen: { host, port: listenPort },
    upstream,
    random: createRandom(seed),
    ...(controlPort === undefined ? {} : { control: { port: controlPort } }),
    ...(token === undefined ? {} : { token }),
    onRevert: (fault, reason, error) => {
      if (error) ctx.stderr.write(`arena: reverting fault ${fault.id} failed: ${errorMessage(error)}\n`);
      else if (reason === 'duration' || reason === 'lease')
        ctx.stderr.write(`arena: fault ${fault.id} (${fault.type}) ended: its ${reason} ran out\n`);
    },
  }).catch((err: unknown) => {
    // a port in use comes back as a UsageError naming the port (exit 2); say which flag set it
    if (err instanceof UsageError)
      throw new UsageError(
        err.message.replace(/^proxy port/, '--listen: port').replace(/^control port/, '--control: port'),
        { code: err.code, ...(err.hint ? { hint: err.hint } : {}), cause: err },
      );
    throw err;
  });
  try {
    for (const fault of faults) await running.registry.add(fault);
    const where = `${host.includes(':') ? `[${host}]` : host}:${running.proxy.port}`;
    const control = running.control
      ? `, control ${running.control.url} (auth: ${token === undefined ? 'off' : 'on, Bearer token required'})`
      : '';
    const faultText = faults.length
      ? `, faults: ${faults.map(describeFault).join(', ')}, seed ${seed}`
      : ', no fault (pass-through)';
    ctx.stderr.write(`arena: tcp proxy listening on ${where} → ${opts.upstream.trim()}${control}${faultText}\n`);
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) resolve();
      else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    const active = running.registry.list().length;
    await running.close();
    ctx.stderr.write(
      `arena: tcp proxy stopped${active ? `, ${active} fault${active === 1 ? '' : 's'} reverted` : ''}\n`,
    );
  }
}
