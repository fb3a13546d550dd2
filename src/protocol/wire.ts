/**
 * The Arena Target Protocol v1 on the wire (DESIGN §9.2): the shapes of its
 * requests and answers, and the strict parser of a fault request. Shared by
 * the remote target (client), `arena target serve` and the fault proxies'
 * control ports (servers), so all three agree on one definition.
 */
export const PROTOCOL_VERSION = 1;

/** Default lease when a request carries none, and the remote target's default. */
export const DEFAULT_LEASE_MS = 5000;
/** Durations and leases are capped like every duration in the arena (DESIGN §3). */
import { MAX_DURATION_MS } from '../shared/duration.js';

export { MAX_DURATION_MS };

export interface FaultRequest {
  /** chosen by the caller; the same id again applies nothing twice */
  id: string;
  type: string;
  target_id?: string;
  source_id?: string;
  params: Record<string, unknown>;
  duration_ms?: number;
  lease_ms: number;
}

export interface FaultAccepted {
  id: string;
  report: Record<string, unknown>;
}

export interface WireActiveFault {
  id: string;
  type: string;
  target_id?: string;
  started_at_ms: number;
  ends_at_ms?: number;
}

export interface WireErrorBody {
  error: string;
  code: string;
}

/** An error with its protocol status and machine code: `{"error", "code"}` on the wire. */
export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export const badRequest = (message: string) => new ProtocolError(400, 'bad_request', message);
export const notFound = (message: string) => new ProtocolError(404, 'not_found', message);
export const unsupported = (message: string) => new ProtocolError(422, 'unsupported', message);
export const notApplicable = (message: string) => new ProtocolError(422, 'not_applicable', message);

const FAULT_KEYS = new Set(['id', 'type', 'target_id', 'source_id', 'params', 'duration_ms', 'lease_ms']);
const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Validates a `POST /v1/faults` body whole before anything is applied: unknown
 * keys, wrong types and out-of-range numbers are a 400 naming the field.
 */
export function parseFaultRequest(body: unknown): FaultRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('body: expected a JSON object');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b))
    if (!FAULT_KEYS.has(key)) throw badRequest(`${key}: unknown field (expected one of ${[...FAULT_KEYS].join(', ')})`);
  if (typeof b.id !== 'string' || !ID_PATTERN.test(b.id))
    throw badRequest('id: expected 1-128 characters of letters, digits, . _ : -');
  if (typeof b.type !== 'string' || b.type.length === 0) throw badRequest('type: expected a fault type');
  for (const key of ['target_id', 'source_id'] as const) {
    if (b[key] !== undefined && (typeof b[key] !== 'string' || (b[key] as string).length === 0))
      throw badRequest(`${key}: expected a non-empty string`);
  }
  const params = b.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw badRequest('params: expected an object');
  const durationMs = b.duration_ms === undefined ? undefined : wireDuration(b.duration_ms, 'duration_ms');
  const leaseMs = b.lease_ms === undefined ? DEFAULT_LEASE_MS : wireDuration(b.lease_ms, 'lease_ms');
  if (leaseMs === 0) throw badRequest('lease_ms: must be greater than 0');
  const request: FaultRequest = {
    id: b.id,
    type: b.type,
    params: { ...(params as Record<string, unknown>) },
    lease_ms: leaseMs,
  };
  if (b.target_id !== undefined) request.target_id = b.target_id as string;
  if (b.source_id !== undefined) request.source_id = b.source_id as string;
  if (durationMs !== undefined) request.duration_ms = durationMs;
  return request;
}

/** `POST /v1/leases`: `{"ids": [...], "lease_ms"}`. */
export function parseLeaseRequest(body: unknown): { ids: string[]; lease_ms: number } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('body: expected a JSON object');
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b))
    if (key !== 'ids' && key !== 'lease_ms') throw badRequest(`${key}: unknown field (expected ids, lease_ms)`);
  if (!Array.isArray(b.ids) || b.ids.some((id) => typeof id !== 'string'))
    throw badRequest('ids: expected an array of fault ids');
  if (b.ids.length > 10_000) throw badRequest('ids: at most 10000 ids');
  const leaseMs = b.lease_ms === undefined ? DEFAULT_LEASE_MS : wireDuration(b.lease_ms, 'lease_ms');
  if (leaseMs === 0) throw badRequest('lease_ms: must be greater than 0');
  return { ids: b.ids as string[], lease_ms: leaseMs };
}

function wireDuration(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DURATION_MS) {
    throw badRequest(`${field}: expected whole milliseconds from 0 to ${MAX_DURATION_MS} (24h)`);
  }
  return value;
}
