/**
 * Issue 11, property-based: generated bodies (JSON of every shape, near-valid
 * objects with real and made-up keys, broken JSON, deep nesting) and query
 * strings sent to every route of a served root. The server never answers
 * 5xx, answers each within a bound, and a request it rejects (4xx) changes
 * nothing: no arena action, no runtime or strategy change, nothing stored.
 * Seeded and bounded, so every run sends the same few hundred requests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, serveRootForTest, type Served } from './served-root.js';

const BOUND_MS = 20_000;

/** keys the routes really take, so generated objects also hit real fields with wrong (or right) values */
const KNOWN_KEYS = [
  'duration',
  'interval',
  'seed',
  'actions',
  'delay',
  'error_type',
  'from',
  'to',
  'type',
  'target_id',
  'metadata',
  'id',
  'role',
  'instructions',
  'message',
  'session_id',
  'content',
  'text',
  'documents',
  'query',
  'top_k',
  'messages',
  'prompt',
  'system',
  'model',
  'max_tokens',
  'evaluator',
  'evaluators',
  'output',
  'expected',
  'options',
  'input',
  'arguments',
  'generations',
  'population',
  'all',
  'ids',
  'failed_only',
  'limit',
  'since',
  'election',
  'patch',
  'steps',
  '__proto__',
];

const PARAMS = ['agent-1', 'agent-9', 'plan', 'echo', 'answer-question', '%41', '%E0%A4%A', 'x'.repeat(300)];

const body = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  {
    weight: 5,
    arbitrary: fc
      .dictionary(
        fc.oneof(fc.constantFrom(...KNOWN_KEYS), fc.string({ maxLength: 12 })),
        fc.jsonValue({ maxDepth: 3 }),
        { minKeys: 1, maxKeys: 4 },
      )
      .map((v) => JSON.stringify(v)),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 65, max: 3000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const query = fc
  .dictionary(
    fc.constantFrom(
      'limit',
      'since',
      'until',
      'type',
      'agent',
      'checks',
      'success',
      'category',
      'seed',
      'time_scale',
      'x',
    ),
    fc.string({ maxLength: 12 }),
    { maxKeys: 3 },
  )
  .map((q) => (Object.keys(q).length ? `?${new URLSearchParams(q)}` : ''));

/** what a request could change; taken right before and right after each request */
async function snapshot(s: Served): Promise<string> {
  const x = s.root.services;
  return JSON.stringify([
    x.service.history().map((r) => r.action.id),
    s.root.runtime.isRunning,
    await s.root.runtime.strategy(),
    x.memory.listSessions().map((m) => [m.id, m.message_count]),
    x.retrieval.list().length,
    x.assistants.list().length,
    x.workflows.list().length,
    x.survival.isRunning,
  ]);
}

/** background work an accepted request may start is ended at once, so it cannot touch the next request's snapshot */
async function settle(s: Served): Promise<void> {
  const x = s.root.services;
  if (x.survival.isRunning) await x.survival.stop().catch(() => undefined);
  await x.survival.settled();
  await Promise.all([x.evolution.stop(), x.runtimeEvolution?.stop()]);
  if (!s.root.runtime.isRunning) await s.root.runtime.start();
}

describe('generated requests against every route', () => {
  it('never 5xx, always within the bound, and a rejected request changes nothing', async () => {
    const s = await serveRootForTest();
    const routes = s.server.app.router
      .routes()
      // long-lived event streams stay open by design; POST /api/v1/stream ends with `done` and is included
      .filter((r) => !(r.method === 'GET' && /stream$/.test(r.pattern)));
    expect(routes.length).toBeGreaterThan(80);
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom(...PARAMS),
        body,
        query,
        async (route, param, text, qs) => {
          const path = route.pattern.replace(/\{[a-z_]+\}/g, param) + qs;
          const before = await snapshot(s);
          const t0 = performance.now();
          const r = await call(s.url, route.method, path, route.method === 'GET' ? undefined : text);
          const ms = performance.now() - t0;
          const after = await snapshot(s);
          const what = `${route.method} ${path} ${String(text).slice(0, 120)} → ${r.status} ${r.text.slice(0, 200)}`;
          expect(r.status, what).toBeLessThan(500);
          expect(ms, what).toBeLessThan(BOUND_MS);
          // 422 is not a rejection: the request was understood and the fault tried; its Result says why it failed
          if (r.status === 422)
            expect(r.json, what).toMatchObject({
              success: false,
              error: expect.any(String),
              action: expect.any(Object),
            });
          else if (r.status >= 400) {
            rejected++;
            expect(r.json, what).toMatchObject({ error: expect.any(String), code: expect.any(String) });
            expect(after, what).toBe(before);
          }
          await settle(s);
        },
      ),
      { seed: 20261123, numRuns: 400, endOnFailure: true },
    );
    // most generated bodies are wrong somewhere: the property must have exercised rejection a lot
    expect(rejected).toBeGreaterThan(200);
    expect(s.logs.filter((l) => l.includes('unhandled'))).toEqual([]);
  }, 120_000);

  it('a body with a key no route takes is a 400 naming it on every POST and DELETE route, and changes nothing', async () => {
    const s = await serveRootForTest();
    // scenario texts are documents with their own validator; validate answers {valid:false} by contract
    const routes = s.server.app.router
      .routes()
      .filter((r) => r.method !== 'GET' && !r.pattern.endsWith('/scenario/validate'));
    const unknownKey = fc
      .string({ minLength: 1, maxLength: 10 })
      .filter(
        (k) => !KNOWN_KEYS.includes(k) && !['__proto__', 'constructor', 'prototype'].includes(k) && /^[a-z]+$/i.test(k),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('agent-1', 'agent-9', 'echo', 'answer-question'),
        unknownKey,
        fc.jsonValue({ maxDepth: 2 }),
        async (route, param, key, value) => {
          const path = route.pattern.replace(/\{[a-z_]+\}/g, param);
          const before = await snapshot(s);
          const r = await call(s.url, route.method, path, JSON.stringify({ [`zz${key}`]: value }));
          const what = `${route.method} ${path} {zz${key}} → ${r.status} ${r.text.slice(0, 200)}`;
          expect(r.status, what).toBe(400);
          expect(r.text, what).toContain(`zz${key}`);
          expect(await snapshot(s), what).toBe(before);
        },
      ),
      { seed: 11, numRuns: 150 },
    );
  }, 60_000);
});
