/**
 * What an `llm_failure` fault asks for, validated whole before anything is
 * applied (DESIGN §10.2): a malformed request is a 400 naming the field, an
 * unknown error type lists the valid ones, another fault type is a 422.
 */
import { badRequest, unsupported } from '../../protocol/wire.js';

import { LLM_PROXY_ERROR_TYPES, LLM_STREAM_ERROR_TYPES, type LLMProxyErrorType } from '../../protocol/llm-errors.js';

export const LLM_FAULT_TYPE = 'llm_failure';

export interface LlmFaultMatch {
  /** the request path ends with this (so `/chat/completions` matches `/v1/chat/completions` too) */
  path?: string;
  /** the request body's `model`: exact, or a prefix when it ends in `*` */
  model?: string;
}

export interface LlmFaultSpec {
  errorType: LLMProxyErrorType;
  /** fail only the first N matching requests, then pass */
  firstN?: number;
  /** chance that a matching request fails, drawn from the proxy's seeded source; 1 when not given */
  probability: number;
  match?: LlmFaultMatch;
  /** the `retry-after` header in seconds; rate_limit sends 1 when not given, other types send none */
  retryAfterS?: number;
  /** stream faults: how many whole SSE events pass before the stream breaks or stalls */
  afterEvents: number;
}

const PARAM_KEYS = ['error_type', 'first_n', 'probability', 'match', 'retry_after_s', 'after_events'];
const DEFAULT_RATE_LIMIT_RETRY_AFTER_S = 1;

export function isStreamFault(type: LLMProxyErrorType): boolean {
  return (LLM_STREAM_ERROR_TYPES as readonly string[]).includes(type);
}

/** Parses a fault's type and params; throws a ProtocolError (400 naming the field, 422 for another fault type). */
export function parseLlmFault(type: string, params: Record<string, unknown>): LlmFaultSpec {
  if (type !== LLM_FAULT_TYPE) throw unsupported(`type: the LLM proxy applies only ${LLM_FAULT_TYPE}, not ${type}`);
  for (const key of Object.keys(params)) {
    if (!PARAM_KEYS.includes(key))
      throw badRequest(`params.${key}: unknown parameter (expected one of ${PARAM_KEYS.join(', ')})`);
  }
  const errorType = params.error_type ?? 'rate_limit';
  if (typeof errorType !== 'string' || !(LLM_PROXY_ERROR_TYPES as readonly string[]).includes(errorType)) {
    throw badRequest(
      `params.error_type: unknown error type ${JSON.stringify(errorType)} (valid: ${LLM_PROXY_ERROR_TYPES.join(', ')})`,
    );
  }
  const spec: LlmFaultSpec = { errorType: errorType as LLMProxyErrorType, probability: 1, afterEvents: 1 };
  if (params.first_n !== undefined) spec.firstN = wholeNumber(params.first_n, 'params.first_n', 1, 1_000_000);
  if (params.probability !== undefined) {
    const p = params.probability;
    if (typeof p !== 'number' || !Number.isFinite(p) || p < 0 || p > 1)
      throw badRequest('params.probability: expected a number from 0 to 1');
    spec.probability = p;
  }
  if (params.match !== undefined) spec.match = parseMatch(params.match);
  if (params.retry_after_s !== undefined) {
    const s = params.retry_after_s;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 3600)
      throw badRequest('params.retry_after_s: expected seconds from 0 to 3600');
    if (spec.errorType === 'timeout' || isStreamFault(spec.errorType)) {
      throw badRequest(
        `params.retry_after_s: ${spec.errorType} sends no status, so it has no retry-after (only rate_limit, overloaded, server_error do)`,
      );
    }
    spec.retryAfterS = s;
  } else if (spec.errorType === 'rate_limit') spec.retryAfterS = DEFAULT_RATE_LIMIT_RETRY_AFTER_S;
  if (params.after_events !== undefined) {
    if (!isStreamFault(spec.errorType))
      throw badRequest(`params.after_events: only stream_error and stream_stall take it, not ${spec.errorType}`);
    spec.afterEvents = wholeNumber(params.after_events, 'params.after_events', 0, 1_000_000);
  }
  return spec;
}

/**
 * `match` is a string (a path when it starts with `/`, else a model) or an
 * object `{path?, model?}` where both given must hold.
 */
export function parseMatch(value: unknown): LlmFaultMatch {
  if (typeof value === 'string') {
    if (value.length === 0)
      throw badRequest('params.match: expected a path (starting with /) or a model name, got an empty string');
    return value.startsWith('/') ? { path: value } : { model: value };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('params.match: expected a string or an object {path?, model?}');
  const m = value as Record<string, unknown>;
  for (const key of Object.keys(m))
    if (key !== 'path' && key !== 'model')
      throw badRequest(`params.match.${key}: unknown field (expected path, model)`);
  const match: LlmFaultMatch = {};
  if (m.path !== undefined) {
    if (typeof m.path !== 'string' || !m.path.startsWith('/'))
      throw badRequest('params.match.path: expected a path starting with /');
    match.path = m.path;
  }
  if (m.model !== undefined) {
    if (typeof m.model !== 'string' || m.model.length === 0)
      throw badRequest('params.match.model: expected a non-empty model name');
    match.model = m.model;
  }
  if (match.path === undefined && match.model === undefined) throw badRequest('params.match: give path, model or both');
  return match;
}

export function matches(match: LlmFaultMatch | undefined, pathname: string, model: string | undefined): boolean {
  if (!match) return true;
  if (match.path !== undefined && !pathname.endsWith(match.path)) return false;
  if (match.model !== undefined) {
    if (model === undefined) return false;
    if (match.model.endsWith('*') ? !model.startsWith(match.model.slice(0, -1)) : model !== match.model) return false;
  }
  return true;
}

/** The fault's options as the report and `GET /v1/stats` show them (wire names). */
export function describeSpec(spec: LlmFaultSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { error_type: spec.errorType, probability: spec.probability };
  if (spec.firstN !== undefined) out.first_n = spec.firstN;
  if (spec.match) out.match = { ...spec.match };
  if (spec.retryAfterS !== undefined) out.retry_after_s = spec.retryAfterS;
  if (isStreamFault(spec.errorType)) out.after_events = spec.afterEvents;
  return out;
}

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw badRequest(`${field}: expected a whole number from ${min} to ${max}`);
  return value;
}
