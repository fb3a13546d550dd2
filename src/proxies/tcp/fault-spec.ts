/**
 * The TCP proxy's fault types and their params (DESIGN §10.1), validated
 * whole before anything is applied: an unknown type is a 422 listing the
 * types this proxy takes, a bad or unknown param a 400 naming the field.
 */
import { ProtocolError, badRequest, type FaultRequest } from '../../protocol/wire.js';

export const TCP_FAULT_TYPES = ['latency', 'blackhole', 'reset', 'bandwidth', 'timeout'] as const;
export type TcpFaultType = (typeof TCP_FAULT_TYPES)[number];

/** an hour: a longer per-chunk delay or timeout is a typo, not a test */
export const MAX_FAULT_MS = 3_600_000;

interface Common {
  /** chance, per connection, that the fault acts on it; undefined = always */
  probability?: number;
}

export type TcpFaultSpec = Common &
  (
    | { type: 'latency'; latency_ms: number; jitter_ms: number }
    | { type: 'blackhole' }
    | { type: 'reset' }
    | { type: 'bandwidth'; bytes_per_s: number }
    | { type: 'timeout'; timeout_ms: number }
  );

const PARAM_KEYS: Record<TcpFaultType, readonly string[]> = {
  latency: ['latency_ms', 'jitter_ms', 'probability'],
  blackhole: ['probability'],
  reset: ['probability'],
  bandwidth: ['bytes_per_s', 'probability'],
  timeout: ['timeout_ms', 'probability'],
};

export function isTcpFaultType(type: string): type is TcpFaultType {
  return (TCP_FAULT_TYPES as readonly string[]).includes(type);
}

/** Turns a protocol fault request into a TCP fault, or throws a ProtocolError saying which field is wrong. */
export function parseTcpFault(request: Pick<FaultRequest, 'type' | 'params'>): TcpFaultSpec {
  const { type, params } = request;
  if (!isTcpFaultType(type)) {
    throw new ProtocolError(
      422,
      'unsupported',
      `type: the TCP proxy has no fault "${type}" (it takes ${TCP_FAULT_TYPES.join(', ')})`,
    );
  }
  const allowed = PARAM_KEYS[type];
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw badRequest(`params.${key}: unknown for ${type} (expected ${allowed.join(', ')})`);
  }
  const common: Common = {};
  if (params.probability !== undefined) {
    const p = params.probability;
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1)
      throw badRequest('params.probability: expected a number from 0 to 1');
    common.probability = p;
  }
  switch (type) {
    case 'latency':
      return {
        type,
        ...common,
        latency_ms: wholeMs(params, 'latency_ms', true),
        jitter_ms: wholeMs(params, 'jitter_ms', false),
      };
    case 'bandwidth': {
      const bps = params.bytes_per_s;
      if (typeof bps !== 'number' || !Number.isInteger(bps) || bps < 1 || bps > Number.MAX_SAFE_INTEGER) {
        throw badRequest('params.bytes_per_s: expected a whole number of bytes per second, at least 1');
      }
      return { type, ...common, bytes_per_s: bps };
    }
    case 'timeout':
      return { type, ...common, timeout_ms: wholeMs(params, 'timeout_ms', true) };
    case 'blackhole':
    case 'reset':
      return { type, ...common };
  }
}

function wholeMs(params: Record<string, unknown>, key: string, required: boolean): number {
  const value = params[key];
  if (value === undefined && !required) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_FAULT_MS) {
    throw badRequest(
      `params.${key}: ${value === undefined ? 'required, ' : ''}expected whole milliseconds from 0 to ${MAX_FAULT_MS}`,
    );
  }
  return value;
}

/** The fault's params as they were understood, for reports. */
export function describeParams(spec: TcpFaultSpec): Record<string, number> {
  const { type: _type, ...rest } = spec;
  return rest as Record<string, number>;
}
