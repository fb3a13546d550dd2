import { describe, expect, it } from 'vitest';
import { ProxyStats, retryAfterMs } from '../../../../src/proxies/llm/stats.js';

describe('LLM proxy per-client stats', () => {
  it('judges each retry against the retry-after it followed, per client', () => {
    const stats = new ProxyStats();
    stats.onRequest('a', 0);
    stats.onInjected('a', 'rate_limit', 10, 1000);
    stats.onRequest('b', 20); // another client's request is not a's retry
    stats.onRequest('a', 1005); // 995 ms: within the 10 ms tolerance
    stats.onInjected('a', 'rate_limit', 1010, 1000);
    stats.onRequest('a', 1500); // 490 ms: a default backoff, not the retry-after
    stats.onRequest('a', 1600); // no error before it: not a retry
    const [a, b] = stats.snapshot().clients;
    expect(a).toMatchObject({
      client: 'a',
      requests: 4,
      retries: 2,
      errors_injected: { rate_limit: 2 },
      retry_after_honoured: false,
    });
    expect(a!.retry_after).toEqual({ sent: 2, honoured: 1, early: 1, waits_ms: [995, 490], last_retry_after_ms: 1000 });
    expect(b).toMatchObject({ client: 'b', requests: 1, retries: 0, retry_after_honoured: null });
  });

  it('a first attempt (x-stainless-retry-count: 0) after an error is not a retry; a counted one is', () => {
    const stats = new ProxyStats();
    stats.onRequest('a', 0, '0');
    stats.onInjected('a', 'rate_limit', 0, 1000);
    stats.onRequest('a', 100, '0'); // the SDK gave up; the agent's next call starts afresh
    stats.onInjected('a', 'rate_limit', 100, 1000);
    stats.onRequest('a', 1100, '1');
    expect(stats.snapshot().clients[0]).toMatchObject({
      requests: 3,
      retries: 1,
      retry_after: { honoured: 1, early: 0 },
      retry_after_honoured: true,
    });
  });

  it('concurrent calls of one client: each retry is judged against the error it retries; totals over all clients', () => {
    const stats = new ProxyStats();
    // three calls fail together with retry-after 1 s, each comes back 1 s after its own error
    for (const at of [0, 300, 400]) {
      stats.onRequest('a', at, '0');
      stats.onInjected('a', 'rate_limit', at, 1000);
    }
    for (const at of [1000, 1300, 1400]) stats.onRequest('a', at, '1');
    stats.onInjected('b', 'rate_limit', 0, 1000);
    stats.onRequest('b', 200, '1'); // early
    const snap = stats.snapshot();
    expect(snap.clients[0]!.retry_after).toMatchObject({ honoured: 3, early: 0, waits_ms: [1000, 1000, 1000] });
    expect(snap.clients[0]!.retry_after_honoured).toBe(true);
    expect(snap.retries).toBe(4);
    expect(snap.retry_after).toEqual({ sent: 4, honoured: 3, early: 1 });
  });

  it('a held request that the fault releases awaits no retry; a retry of a 401 is reported', () => {
    const stats = new ProxyStats();
    stats.onInjected('a', 'timeout', 0);
    stats.onRequest('a', 100);
    stats.onInjected('a', 'auth', 200);
    stats.onRequest('a', 300, '1');
    expect(stats.snapshot().clients[0]).toMatchObject({ retries: 1, retried_non_retryable: 1 });
  });

  it('a hang-up on a held request makes the next request a retry, with no retry-after to judge', () => {
    const stats = new ProxyStats();
    stats.onRequest('a', 0);
    stats.onInjected('a', 'timeout', 0);
    stats.onGaveUp('a', 150);
    stats.onRequest('a', 160);
    expect(stats.snapshot().clients[0]).toMatchObject({
      retries: 1,
      gave_up: 1,
      retry_after: { sent: 0 },
      retry_after_honoured: null,
    });
  });

  it('reads retry-after as the SDKs do: seconds with fractions, or an HTTP date', () => {
    const now = Date.UTC(2026, 0, 1, 0, 0, 0);
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('0.25', now)).toBe(250);
    expect(retryAfterMs(new Date(now + 3000).toUTCString(), now)).toBe(3000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
