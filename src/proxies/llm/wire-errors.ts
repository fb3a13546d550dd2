/**
 * The error answers of the OpenAI and Anthropic APIs, as each sends them
 * (DESIGN §10.2): status, headers and body. The SDKs decide whether and when
 * to retry from exactly these (status, `retry-after`, `x-should-retry`), so a
 * fault that got one detail wrong would test a different retry path than the
 * real outage does.
 */
import { randomBytes } from 'node:crypto';

export type LlmApi = 'openai' | 'anthropic';

/** The error types a fault can inject through a status code (the stream ones are in stream-faults.ts). */
export type StatusErrorType =
  | 'rate_limit'
  | 'overloaded'
  | 'server_error'
  | 'context_length'
  | 'auth'
  | 'forbidden'
  | 'insufficient_quota';

export interface WireError {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const OPENAI = {
  rate_limit: {
    status: 429,
    type: 'requests',
    code: 'rate_limit_exceeded' as string | null,
    message: 'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again later.',
  },
  overloaded: {
    status: 503,
    type: 'server_error',
    code: null,
    message: 'The engine is currently overloaded, please try again later',
  },
  server_error: {
    status: 500,
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request. Sorry about that!',
  },
  // the bodies below are as OpenAI sends them (seen in openai-node/openai-python issue reports)
  context_length: {
    status: 400,
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    param: 'messages',
    message:
      "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
  },
  auth: {
    status: 401,
    type: 'invalid_request_error',
    code: 'invalid_api_key',
    message:
      'Incorrect API key provided: sk-arena***********************fake. You can find your API key at https://platform.openai.com/account/api-keys.',
  },
  forbidden: {
    status: 403,
    type: 'request_forbidden',
    code: 'unsupported_country_region_territory',
    message: 'Country, region, or territory not supported',
  },
  insufficient_quota: {
    status: 429,
    type: 'insufficient_quota',
    code: 'insufficient_quota',
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
  },
} satisfies Record<
  StatusErrorType,
  { status: number; type: string; code: string | null; message: string; param?: string }
>;

const ANTHROPIC = {
  rate_limit: {
    status: 429,
    type: 'rate_limit_error',
    message: "This request would exceed your organization's rate limit. Please try again later.",
  },
  overloaded: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  server_error: { status: 500, type: 'api_error', message: 'Internal server error' },
  context_length: {
    status: 400,
    type: 'invalid_request_error',
    message: 'prompt is too long: 208310 tokens > 200000 maximum',
  },
  auth: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  forbidden: {
    status: 403,
    type: 'permission_error',
    message: 'Your API key does not have permission to use the specified resource.',
  },
  // Anthropic has no quota 429: an account out of credit gets this 400
  insufficient_quota: {
    status: 400,
    type: 'invalid_request_error',
    message:
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
  },
} satisfies Record<StatusErrorType, { status: number; type: string; message: string }>;

/** OpenAI answers `x-request-id: req_<32 hex>`. */
export function openaiRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Anthropic answers `request-id: req_011C…` (24 base62 characters after the prefix). */
export function anthropicRequestId(): string {
  const bytes = randomBytes(20);
  let id = 'req_011C';
  for (const b of bytes) id += BASE62[b % 62];
  return id;
}

/**
 * A status error in the API's shape. `retryAfterS` becomes the `retry-after`
 * header (seconds, as both APIs send it; fractions are kept because the SDKs
 * parse it with parseFloat, which lets tests wait 200 ms instead of 1 s).
 */
export function statusError(
  api: LlmApi,
  errorType: StatusErrorType,
  retryAfterS?: number,
  wallNowMs = Date.now(),
): WireError {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let status: number;
  let body: unknown;
  if (api === 'openai') {
    const e: { status: number; type: string; code: string | null; message: string; param?: string } = OPENAI[errorType];
    status = e.status;
    headers['x-request-id'] = openaiRequestId();
    body = { error: { message: e.message, type: e.type, param: e.param ?? null, code: e.code } };
  } else {
    const e = ANTHROPIC[errorType];
    const requestId = anthropicRequestId();
    status = e.status;
    headers['request-id'] = requestId;
    // Anthropic marks its transient errors retryable explicitly; the SDKs obey this header before looking at the status
    if (status === 429 || status >= 500) headers['x-should-retry'] = 'true';
    body = { type: 'error', error: { details: null, type: e.type, message: e.message }, request_id: requestId };
  }
  if (retryAfterS !== undefined) headers['retry-after'] = String(retryAfterS);
  if (errorType === 'rate_limit') Object.assign(headers, rateLimitHeaders(api, (retryAfterS ?? 1) * 1000, wallNowMs));
  return { status, headers, body: JSON.stringify(body) };
}

/**
 * The request-limit headers a 429 carries (clients that pace themselves read
 * these rather than retry-after): none left, and the window resets when the
 * retry-after runs out. OpenAI writes the reset as a duration (`1s`, `6m0s`),
 * Anthropic as an RFC 3339 time.
 */
function rateLimitHeaders(api: LlmApi, resetMs: number, wallNowMs: number): Record<string, string> {
  if (api === 'openai') {
    return {
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': goDuration(resetMs),
    };
  }
  const reset = new Date(Math.ceil((wallNowMs + resetMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return {
    'anthropic-ratelimit-requests-limit': '60',
    'anthropic-ratelimit-requests-remaining': '0',
    'anthropic-ratelimit-requests-reset': reset,
  };
}

/** `250ms`, `1s`, `1.5s`, `6m0s`: how OpenAI writes its reset durations */
function goDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = +((ms % 60_000) / 1000).toFixed(3);
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

/**
 * The 502 the proxy answers when the upstream cannot be reached, in the API's
 * own error shape so the SDK raises its typed error (and retries, as it would
 * for a real gateway failure) instead of choking on an unfamiliar body.
 */
export function upstreamUnreachable(api: LlmApi, detail: string): WireError {
  const message = `arena llm proxy: upstream unreachable (${detail})`;
  if (api === 'openai') {
    return {
      status: 502,
      headers: { 'content-type': 'application/json', 'x-request-id': openaiRequestId() },
      body: JSON.stringify({ error: { message, type: 'server_error', param: null, code: 'upstream_unreachable' } }),
    };
  }
  const requestId = anthropicRequestId();
  return {
    status: 502,
    headers: { 'content-type': 'application/json', 'request-id': requestId },
    body: JSON.stringify({
      type: 'error',
      error: { details: null, type: 'api_error', message },
      request_id: requestId,
    }),
  };
}

/** The SSE event Anthropic sends when a stream fails after it started: `event: error` with `overloaded_error`. */
export function anthropicStreamErrorEvent(): string {
  const data = {
    type: 'error',
    error: { details: null, type: 'overloaded_error', message: 'Overloaded' },
    request_id: anthropicRequestId(),
  };
  return `event: error\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * `--api auto`: the format follows the request path. Anthropic's routes are
 * `/v1/messages` (and `/v1/messages/count_tokens`, `/v1/complete`); everything
 * else (`/v1/chat/completions`, `/v1/responses`, `/v1/embeddings`, …) is OpenAI's.
 */
export function apiForPath(pathname: string): LlmApi {
  return /\/messages(\/|$)|\/v1\/complete$/.test(pathname) ? 'anthropic' : 'openai';
}
