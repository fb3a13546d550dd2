/**
 * Per-client counters for `GET /v1/stats` (DESIGN §10.2): what each client
 * sent, what was injected on it, how often it came back, and whether it came
 * back only after the `retry-after` it was given.
 *
 * A client is the `x-arena-client` header when sent, else its address and
 * user agent. The request that follows an error on the same client is taken
 * as its retry, unless it says it is a first attempt (`x-stainless-retry-count: 0`,
 * sent by the official SDKs). A client that sends unrelated calls
 * concurrently can blur this (documented in the README's LLM proxy section).
 */
import type { IncomingMessage } from 'node:http';
import type { LlmErrorType } from '../../protocol/llm-faults.js';

/** timers and the loopback hop may land a retry a hair early; less than this is still honoured */
const HONOUR_TOLERANCE_MS = 10;
const MAX_CLIENTS = 1000;
const KEEP_WAITS = 20;
/** the provider's answer says a retry cannot help: a client that retries anyway is reported */
const NON_RETRYABLE: ReadonlySet<LlmErrorType> = new Set(['context_length', 'auth', 'forbidden', 'insufficient_quota']);

export interface RetryAfterStats {
  /** answers with `retry-after` this client got (injected, or the upstream's own 429s) */
  sent: number;
  /** retries that came after the delay */
  honoured: number;
  /** retries that came sooner */
  early: number;
  /** the last waits, in ms, from the error to the retry */
  waits_ms: number[];
  /** the last retry-after given, in ms */
  last_retry_after_ms?: number;
}

export interface ClientStats {
  client: string;
  requests: number;
  /** answered by the upstream untouched */
  passed: number;
  errors_injected: Partial<Record<LlmErrorType, number>>;
  /** requests that followed an error on this client */
  retries: number;
  /** held requests (timeout fault) the client gave up on */
  gave_up: number;
  /** answers a quiet fault changed (truncated, emptied, slowed, swapped…), by error type */
  changed: Partial<Record<LlmErrorType, number>>;
  /** faults drawn for this client's answers that found nothing to change (no tool call, no stream…) */
  not_applicable: number;
  /** retries of an answer that forbids one (400 context_length, 401, 403, insufficient_quota) */
  retried_non_retryable: number;
  retry_after: RetryAfterStats;
  /** true when every retry after a retry-after waited long enough; null before any */
  retry_after_honoured: boolean | null;
}

export interface LlmProxyStats {
  requests: number;
  passed: number;
  errors_injected: Partial<Record<LlmErrorType, number>>;
  /** 502s answered because the upstream could not be reached */
  upstream_failures: number;
  changed: Partial<Record<LlmErrorType, number>>;
  not_applicable: number;
  retried_non_retryable: number;
  /** every client's retries and retry-after verdicts together */
  retries: number;
  retry_after: { sent: number; honoured: number; early: number };
  /** requests held by a timeout fault right now */
  held: number;
  /** streams stalled right now */
  stalled: number;
  clients: ClientStats[];
}

interface Pending {
  at: number;
  retryAfterMs?: number;
  isNonRetryable?: boolean;
}

/** most errors awaited per client; an error not retried within this long is no longer awaited */
const MAX_PENDING = 100;
const PENDING_TTL_MS = 120_000;

/**
 * The error a retry at `now` retries: the latest one whose retry-after it honours (concurrent calls that
 * failed together each come back after their own delay), else the oldest (the most charitable wait).
 */
function pairRetry(pending: Pending[], now: number): Pending | undefined {
  let honoured = -1;
  for (let i = 0; i < pending.length; i++)
    if (now + HONOUR_TOLERANCE_MS >= pending[i]!.at + (pending[i]!.retryAfterMs ?? 0)) honoured = i;
  const i = honoured >= 0 ? honoured : 0;
  return pending.splice(i, 1)[0];
}

interface ClientState {
  stats: ClientStats;
  /** the error whose retry is awaited: when it was answered and the delay it asked for */
  /**
   * errors whose retry is awaited, oldest first: concurrent calls of one client each have their own,
   * so each retry is judged against the error it retries, not the latest error of another call
   */
  pending: Pending[];
}

export class ProxyStats {
  private clients = new Map<string, ClientState>();
  private requests = 0;
  private passed = 0;
  private injected: Partial<Record<LlmErrorType, number>> = {};
  private upstreamFailures = 0;
  private changed: Partial<Record<LlmErrorType, number>> = {};
  private notApplicable = 0;
  private retriedNonRetryable = 0;
  private retries = 0;
  private retryAfter = { sent: 0, honoured: 0, early: 0 };
  held = 0;
  stalled = 0;

  clientOf(req: IncomingMessage): string {
    const named = req.headers['x-arena-client'];
    if (typeof named === 'string' && named.length > 0) return named.slice(0, 200);
    return `${req.socket.remoteAddress ?? '?'} ${(req.headers['user-agent'] ?? '-').slice(0, 200)}`;
  }

  /**
   * A request arrived at `now`; counts it as the awaited retry if it is one.
   * `retryCount` is the Stainless SDKs' `x-stainless-retry-count` (openai,
   * @anthropic-ai/sdk): when sent, it says for sure whether this is a retry,
   * so a fresh call after the SDK gave up is not judged against an old retry-after.
   */
  onRequest(client: string, now: number, retryCount?: string | string[]): void {
    this.requests++;
    const state = this.state(client);
    state.stats.requests++;
    // a first attempt (the SDK says so) retries nothing; errors no longer awaited are let go
    while (
      state.pending.length > 0 &&
      now - state.pending[0]!.at > (state.pending[0]!.retryAfterMs ?? 0) + PENDING_TTL_MS
    )
      state.pending.shift();
    if (retryCount === '0' || state.pending.length === 0) return;
    const pending = pairRetry(state.pending, now)!;
    state.stats.retries++;
    this.retries++;
    if (pending.isNonRetryable) {
      state.stats.retried_non_retryable++;
      this.retriedNonRetryable++;
    }
    if (pending.retryAfterMs === undefined) return;
    const ra = state.stats.retry_after;
    const waited = Math.max(0, Math.round(now - pending.at));
    ra.waits_ms.push(waited);
    if (ra.waits_ms.length > KEEP_WAITS) ra.waits_ms.shift();
    if (waited + HONOUR_TOLERANCE_MS >= pending.retryAfterMs) {
      ra.honoured++;
      this.retryAfter.honoured++;
    } else {
      ra.early++;
      this.retryAfter.early++;
    }
    state.stats.retry_after_honoured = ra.early === 0;
  }

  onPassed(client: string): void {
    this.passed++;
    this.state(client).stats.passed++;
  }

  onInjected(client: string, type: LlmErrorType, now: number, retryAfterMs?: number): void {
    this.injected[type] = (this.injected[type] ?? 0) + 1;
    const stats = this.state(client).stats;
    stats.errors_injected[type] = (stats.errors_injected[type] ?? 0) + 1;
    // a held request (timeout) awaits no retry until the client gives up on it (onGaveUp)
    if (type === 'timeout') return;
    this.expectRetry(client, now, retryAfterMs, NON_RETRYABLE.has(type));
  }

  /** a quiet fault changed an answer that still went out: not an error, so no retry is awaited */
  onChanged(client: string, type: LlmErrorType): void {
    this.changed[type] = (this.changed[type] ?? 0) + 1;
    const stats = this.state(client).stats;
    stats.changed[type] = (stats.changed[type] ?? 0) + 1;
  }

  onNotApplicable(client: string, _type: LlmErrorType): void {
    this.notApplicable++;
    this.state(client).stats.not_applicable++;
  }

  /** an error answered by the upstream itself (a real 429 with retry-after, a 5xx): its retry is watched the same way */
  onUpstreamError(client: string, now: number, retryAfterMs?: number): void {
    this.expectRetry(client, now, retryAfterMs);
  }

  onGaveUp(client: string, now: number): void {
    this.state(client).stats.gave_up++;
    this.expectRetry(client, now, undefined);
  }

  onUpstreamFailure(client: string, now: number): void {
    this.upstreamFailures++;
    this.expectRetry(client, now, undefined);
  }

  snapshot(): LlmProxyStats {
    return {
      requests: this.requests,
      passed: this.passed,
      errors_injected: { ...this.injected },
      upstream_failures: this.upstreamFailures,
      changed: { ...this.changed },
      not_applicable: this.notApplicable,
      retried_non_retryable: this.retriedNonRetryable,
      retries: this.retries,
      retry_after: { ...this.retryAfter },
      held: this.held,
      stalled: this.stalled,
      clients: [...this.clients.values()].map(({ stats }) => ({
        ...stats,
        errors_injected: { ...stats.errors_injected },
        changed: { ...stats.changed },
        retry_after: { ...stats.retry_after, waits_ms: [...stats.retry_after.waits_ms] },
      })),
    };
  }

  private expectRetry(client: string, now: number, retryAfterMs: number | undefined, isNonRetryable = false): void {
    const state = this.state(client);
    const pending: Pending = { at: now };
    if (retryAfterMs !== undefined) pending.retryAfterMs = retryAfterMs;
    if (isNonRetryable) pending.isNonRetryable = true;
    state.pending.push(pending);
    if (state.pending.length > MAX_PENDING) state.pending.shift();
    if (retryAfterMs !== undefined) {
      this.retryAfter.sent++;
      state.stats.retry_after.sent++;
      state.stats.retry_after.last_retry_after_ms = retryAfterMs;
    }
  }

  private state(client: string): ClientState {
    let state = this.clients.get(client);
    if (!state) {
      state = {
        pending: [],
        stats: {
          client,
          requests: 0,
          passed: 0,
          errors_injected: {},
          retries: 0,
          gave_up: 0,
          changed: {},
          not_applicable: 0,
          retried_non_retryable: 0,
          retry_after: { sent: 0, honoured: 0, early: 0, waits_ms: [] },
          retry_after_honoured: null,
        },
      };
      this.clients.set(client, state);
      // the oldest client goes first: the map stays bounded whatever the clients call themselves
      if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value as string);
    }
    return state;
  }
}

/** `retry-after` as the SDKs read it: seconds (fractions allowed) or an HTTP date; undefined when absent or unreadable */
export function retryAfterMs(header: string | string[] | undefined, wallNow: number): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - wallNow);
}
