/**
 * Issue 11: no request may make the server spend unbounded time or overflow
 * its stack. Each case here froze or crashed the server before the fix.
 */
import { describe, expect, it } from 'vitest';
import { call, serveRootForTest, stateOf } from './served-root.js';

/** a request must be answered within this (generous for a loaded 2-core machine; the bugs took seconds to minutes) */
const BOUND_MS = 20_000;

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work;
  return { value, ms: performance.now() - t0 };
}

describe('bounded time for user input', () => {
  it('a catastrophic-backtracking regex is evaluated in linear time; RE2-unsupported syntax is a 400 naming why', async () => {
    const { url } = await serveRootForTest();
    const evil = { evaluator: 'regex', output: `${'a'.repeat(40)}!`, expected: '(a+)+$' };
    const { value: r, ms } = await timed(call(url, 'POST', '/api/v1/eval/evaluate', evil));
    expect(r.status, r.text).toBe(200);
    expect(r.json.passed).toBe(false);
    expect(ms).toBeLessThan(BOUND_MS);
    const backref = await call(url, 'POST', '/api/v1/eval/evaluate', {
      evaluator: 'regex',
      output: 'aa',
      expected: '(a)\\1',
    });
    expect(backref.status).toBe(400);
    expect(backref.json.error).toMatch(/RE2 syntax/);
    const ok = await call(url, 'POST', '/api/v1/eval/evaluate', {
      evaluator: 'regex',
      output: 'Hello World',
      expected: '^hello',
      options: { flags: 'i' },
    });
    expect(ok.json.passed).toBe(true);
  });

  it('a long run of digits in an LLM prompt is answered at once (the math finder rescanned it from every position)', async () => {
    const { url } = await serveRootForTest();
    const { value: r, ms } = await timed(
      call(url, 'POST', '/api/v1/llm/generate', { prompt: `${'1'.repeat(100_000)}x` }),
    );
    expect(r.status, r.text).toBe(200);
    expect(ms).toBeLessThan(BOUND_MS);
    expect((await call(url, 'POST', '/api/v1/llm/generate', { prompt: 'what is 2 * (3 + 4)?' })).json.text).toBe(
      'The answer is 14.',
    );
  });

  it('deeply nested arithmetic is refused by the compute parser, not a stack overflow', async () => {
    const { url } = await serveRootForTest();
    const deep = `${'('.repeat(5000)}1${')'.repeat(5000)}`;
    const r = await call(url, 'POST', '/api/v1/runtime/mcp/tools/calculate/call', { arguments: { expression: deep } });
    expect(r.status).toBeLessThan(500);
    expect(r.text).toMatch(/nested deeper than 100 levels|at most/);
    const fine = await call(url, 'POST', '/api/v1/runtime/mcp/tools/calculate/call', {
      arguments: { expression: '2 * (3 + 4)' },
    });
    expect(fine.text).toContain('14');
  });

  it('a workflow of thousands of chained steps is a 400 naming the step limit, not a stack overflow in the cycle search', async () => {
    const { url, root } = await serveRootForTest();
    const before = await stateOf(root);
    const steps = Array.from({ length: 15_000 }, (_, i) => ({
      id: `s${i}`,
      agent_type: 'echo',
      ...(i ? { depends_on: [`s${i - 1}`] } : {}),
    }));
    const { value: r, ms } = await timed(call(url, 'POST', '/api/v1/workflows', { id: 'chain', steps }));
    expect(r.status, r.text.slice(0, 300)).toBe(400);
    expect(r.json.error).toContain('at most 500 steps');
    expect(ms).toBeLessThan(BOUND_MS);
    expect(await stateOf(root)).toBe(before);
  });

  it('a scenario nested thousands of levels deep is a 400 before the YAML parser recurses', async () => {
    const { url } = await serveRootForTest();
    for (const text of [
      `name: x\nactions: ${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n'),
    ]) {
      const r = await call(url, 'POST', '/arena/scenario/validate', text);
      expect(r.status, r.text.slice(0, 300)).toBeLessThan(500);
      expect(r.text).toMatch(/deeper than 64 levels/);
      const run = await call(url, 'POST', '/arena/scenario/run', text);
      expect(run.status).toBe(400);
    }
  });

  it('a scenario of thousands of actions (a depends_on chain, or each naming an unknown label) is a 400 at once, with a short message', async () => {
    const { url, root } = await serveRootForTest();
    const before = await stateOf(root);
    const action = '{ type: kill_leader }';
    const chain = `name: chain\nactions:\n${Array.from({ length: 3000 }, (_, i) => `  - { label: a${i}, action: ${action}${i ? `, depends_on: [a${i - 1}]` : ''} }`).join('\n')}`;
    // on main, each unknown reference listed every label: a message growing with the square of the scenario
    const unknown = `name: refs\nactions:\n${Array.from({ length: 3000 }, (_, i) => `  - { label: a${i}, action: ${action}, depends_on: [nope] }`).join('\n')}`;
    for (const text of [chain, unknown]) {
      const { value: r, ms } = await timed(call(url, 'POST', '/arena/scenario/run', text));
      expect(r.status, r.text.slice(0, 300)).toBe(400);
      expect(r.text).toContain('at most 1000 actions');
      expect(r.text.length).toBeLessThan(10_000);
      expect(ms).toBeLessThan(BOUND_MS);
    }
    expect(await stateOf(root)).toBe(before);
  });

  it('an evolution run whose survival work would exceed an hour is refused at the request, not started', async () => {
    const { url } = await serveRootForTest();
    for (const group of ['evolution', 'runtime-evolution']) {
      const r = await call(url, 'POST', `/api/v1/${group}/runs`, {
        generations: 1000,
        population: 100,
        duration: '1s',
      });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toContain('at most 60 minutes per run');
      expect((await call(url, 'GET', `/api/v1/${group}/status`)).json.running).toBeNull();
    }
  });

  it('a survival run planning more actions than one run may take (24 h at 1 ms) is a 400 naming the limit, not started', async () => {
    const { url } = await serveRootForTest();
    const r = await call(url, 'POST', '/arena/survival', { duration: '24h', interval: '1ms' });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error).toMatch(/plans 86400000 actions; at most 100000 per run/);
    expect((await call(url, 'GET', '/arena/survival/status')).json).toMatchObject({ running: false });
  });

  it('JSON nested deeper than 64 levels is a 400 on every route that takes a body, and changes nothing', async () => {
    const { url, root, server } = await serveRootForTest();
    const before = await stateOf(root);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const posts = server.app.router.routes().filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(40);
    for (const route of posts) {
      const path = route.pattern.replace('{id}', 'agent-1').replace('{name}', 'echo');
      const r = await call(url, 'POST', path, deep);
      // validation answers its verdict as a document (DESIGN §7); everything else refuses with 400
      if (path.endsWith('/scenario/validate'))
        expect(r.json).toMatchObject({
          valid: false,
          errors: [{ message: expect.stringMatching(/at most 64|deeper than 64 levels/) }],
        });
      else expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(400);
    }
    expect(await stateOf(root)).toBe(before);
  });
});
