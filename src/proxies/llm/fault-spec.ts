/**
 * What an `llm_failure` fault asks for, validated whole before anything is
 * applied (DESIGN §10.2, §13.1): a malformed request is a 400 naming the
 * field, an unknown error type lists the valid ones, another fault type is a
 * 422. The vocabulary itself (types and parameters) is the shared one in
 * protocol/llm-faults.ts.
 */
import { llmFaultProblems, STREAM_FAULTS, type LlmErrorType, type LlmFaultParams } from '../../protocol/llm-faults.js';
import { badRequest, unsupported } from '../../protocol/wire.js';

export { LLM_ERROR_TYPES, type LlmErrorType } from '../../protocol/llm-faults.js';

export const LLM_FAULT_TYPE = 'llm_failure';

export interface LlmFaultMatch {
  /** the request path ends with this (so `/chat/completions` matches `/v1/chat/completions` too) */
  path?: string;
  /** the request body's `model`: exact, or a prefix when it ends in `*` */
  model?: string;
}

export interface LlmFaultSpec {
  errorType: LlmErrorType;
  /** act only on the first N matching requests, then pass */
  firstN?: number;
  /** chance that a matching request is acted on, drawn from the proxy's seeded source; 1 when not given */
  probability: number;
  match?: LlmFaultMatch;
  /** the `retry-after` header in seconds; rate_limit sends 1 when not given, other types send none */
  retryAfterS?: number;
  /** stream faults: how many whole SSE events pass before the stream breaks or stalls */
  afterEvents: number;
  /** truncate: the fraction of the text kept */
  keep: number;
  delayMs: number;
  chunkDelayMs: number;
  requestsPerMin?: number;
  tokensPerMin?: number;
  toModel?: string;
}

const DEFAULT_RATE_LIMIT_RETRY_AFTER_S = 1;
const DEFAULT_KEEP = 0.5;
const DEFAULT_DELAY_MS = 5000;
const DEFAULT_CHUNK_DELAY_MS = 500;

export function isStreamFault(type: LlmErrorType): boolean {
  return STREAM_FAULTS.has(type);
}

/** Parses a fault's type and params; throws a ProtocolError (400 naming the field, 422 for another fault type). */
export function parseLlmFault(type: string, params: Record<string, unknown>): LlmFaultSpec {
  if (type !== LLM_FAULT_TYPE) throw unsupported(`type: the LLM proxy applies only ${LLM_FAULT_TYPE}, not ${type}`);
  const problems = llmFaultProblems(params);
  if (problems.length > 0) {
    const first = problems[0]!;
    throw badRequest(`params.${first.field}: ${first.message}`);
  }
  return specOf(params as LlmFaultParams);
}

function specOf(p: LlmFaultParams): LlmFaultSpec {
  const errorType = p.error_type ?? 'rate_limit';
  const spec: LlmFaultSpec = {
    errorType,
    probability: p.probability ?? 1,
    afterEvents: p.after_events ?? 1,
    keep: p.keep ?? DEFAULT_KEEP,
    delayMs: p.delay_ms ?? DEFAULT_DELAY_MS,
    chunkDelayMs: p.chunk_delay_ms ?? DEFAULT_CHUNK_DELAY_MS,
  };
  if (p.first_n !== undefined) spec.firstN = p.first_n;
  if (p.match !== undefined)
    spec.match =
      typeof p.match === 'string' ? (p.match.startsWith('/') ? { path: p.match } : { model: p.match }) : { ...p.match };
  if (p.retry_after_s !== undefined) spec.retryAfterS = p.retry_after_s;
  else if (errorType === 'rate_limit') spec.retryAfterS = DEFAULT_RATE_LIMIT_RETRY_AFTER_S;
  if (p.requests_per_min !== undefined) spec.requestsPerMin = p.requests_per_min;
  if (p.tokens_per_min !== undefined) spec.tokensPerMin = p.tokens_per_min;
  if (p.to_model !== undefined) spec.toModel = p.to_model;
  return spec;
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
  if (spec.errorType === 'truncate') out.keep = spec.keep;
  if (spec.errorType === 'slow_first_token') out.delay_ms = spec.delayMs;
  if (spec.errorType === 'slow_stream') out.chunk_delay_ms = spec.chunkDelayMs;
  if (spec.requestsPerMin !== undefined) out.requests_per_min = spec.requestsPerMin;
  if (spec.tokensPerMin !== undefined) out.tokens_per_min = spec.tokensPerMin;
  if (spec.toModel !== undefined) out.to_model = spec.toModel;
  return out;
}
