/**
 * `rate_limit_storm` (DESIGN §13.1): a token bucket per client that starts
 * full, holds a minute's allowance and refills continuously, for requests and
 * for tokens, as the providers meter them. An empty bucket answers 429 with a
 * `retry-after` (whole seconds, rounded up) that is exactly when the bucket
 * holds enough again, and remaining/reset headers that agree with it.
 */
import type { LlmApi, WireError } from './wire-errors.js';
import { statusError } from './wire-errors.js';

interface Bucket {
  requests: number;
  tokens: number;
  at: number;
}

export interface BucketLimits {
  requestsPerMin?: number;
  tokensPerMin?: number;
}

const MAX_CLIENTS = 1000;

export class RateBuckets {
  private buckets = new Map<string, Bucket>();

  constructor(private readonly limits: BucketLimits) {}

  /** undefined when the request may pass (its cost taken), else the 429 to answer */
  take(client: string, cost: number, now: number, api: LlmApi, wallNow: number): WireError | undefined {
    const { requestsPerMin: rpm, tokensPerMin: tpm } = this.limits;
    let b = this.buckets.get(client);
    if (!b) {
      b = { requests: rpm ?? 0, tokens: tpm ?? 0, at: now };
      this.buckets.set(client, b);
      if (this.buckets.size > MAX_CLIENTS) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    const elapsed = Math.max(0, now - b.at);
    b.at = now;
    if (rpm !== undefined) b.requests = Math.min(rpm, b.requests + (elapsed * rpm) / 60_000);
    if (tpm !== undefined) b.tokens = Math.min(tpm, b.tokens + (elapsed * tpm) / 60_000);
    // a request dearer than a whole minute's allowance is charged the allowance, or it could never pass
    const tokens = tpm === undefined ? 0 : Math.min(cost, tpm);
    const waitRequests = rpm === undefined || b.requests >= 1 ? 0 : ((1 - b.requests) * 60_000) / rpm;
    const waitTokens = tpm === undefined || b.tokens >= tokens ? 0 : ((tokens - b.tokens) * 60_000) / tpm;
    if (waitRequests === 0 && waitTokens === 0) {
      if (rpm !== undefined) b.requests -= 1;
      if (tpm !== undefined) b.tokens -= tokens;
      return undefined;
    }
    const waitMs = Math.max(waitRequests, waitTokens);
    const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
    const which = waitRequests >= waitTokens ? 'requests' : 'tokens';
    const wire = statusError(api, 'rate_limit', retryAfterS, wallNow);
    for (const name of Object.keys(wire.headers))
      if (name.startsWith('x-ratelimit-') || name.startsWith('anthropic-ratelimit-')) delete wire.headers[name];
    Object.assign(wire.headers, limitHeaders(api, this.limits, b, waitRequests, waitTokens, wallNow));
    const limit = which === 'requests' ? rpm! : tpm!;
    const used = which === 'requests' ? limit - Math.floor(b.requests) : limit - Math.floor(b.tokens);
    const requested = which === 'requests' ? 1 : tokens;
    const message =
      api === 'openai'
        ? `Rate limit reached for ${which} per min (${which === 'requests' ? 'RPM' : 'TPM'}): Limit ${limit}, Used ${used}, Requested ${requested}. Please try again in ${retryAfterS}s.`
        : `This request would exceed your organization's rate limit of ${limit} ${which === 'requests' ? 'requests' : 'input tokens'} per minute. Please try again later.`;
    const body = JSON.parse(wire.body) as { error: { message: string; type: string } };
    body.error.message = message;
    if (api === 'openai') body.error.type = which;
    return { ...wire, body: JSON.stringify(body) };
  }
}

/** the request's cost in tokens, as the providers estimate before answering: its bytes / 4, plus the answer's max_tokens */
export function requestTokens(bodyBytes: number, maxTokens: number | undefined): number {
  return Math.ceil(bodyBytes / 4) + (maxTokens ?? 0);
}

function limitHeaders(
  api: LlmApi,
  limits: BucketLimits,
  b: Bucket,
  waitRequests: number,
  waitTokens: number,
  wallNow: number,
): Record<string, string> {
  const out: Record<string, string> = {};
  const kinds: Array<['requests' | 'tokens', number | undefined, number, number]> = [
    ['requests', limits.requestsPerMin, b.requests, waitRequests],
    ['tokens', limits.tokensPerMin, b.tokens, waitTokens],
  ];
  for (const [kind, limit, left, wait] of kinds) {
    if (limit === undefined) continue;
    const remaining = String(Math.max(0, Math.floor(left)));
    if (api === 'openai') {
      out[`x-ratelimit-limit-${kind}`] = String(limit);
      out[`x-ratelimit-remaining-${kind}`] = remaining;
      out[`x-ratelimit-reset-${kind}`] = `${Math.ceil(wait)}ms`;
    } else {
      const name = kind === 'requests' ? 'requests' : 'input-tokens';
      out[`anthropic-ratelimit-${name}-limit`] = String(limit);
      out[`anthropic-ratelimit-${name}-remaining`] = remaining;
      out[`anthropic-ratelimit-${name}-reset`] = new Date(Math.ceil((wallNow + wait) / 1000) * 1000)
        .toISOString()
        .replace('.000Z', 'Z');
    }
  }
  return out;
}
