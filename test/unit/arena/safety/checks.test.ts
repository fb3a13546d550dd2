import { describe, expect, it } from 'vitest';
import {
  availabilityCheck,
  missingSource,
  probeCheck,
  prometheusCheck,
  spendCheck,
} from '../../../../src/arena/safety/checks.js';
import { parseStopWhen } from '../../../../src/arena/safety/stop-when.js';
import { createCallLedger } from '../../../../src/protocol/calls.js';

const one = (input: unknown) => parseStopWhen(input).conditions[0]!;

describe('availability_below: a sliding window over the cumulative workload counters', () => {
  it('compares the last window only: a bad past older than the window no longer counts', async () => {
    const counters = { requests: 0, succeeded: 0, failed: 0 };
    const c = one({ availability_below: { value: 80, window: 1000 } });
    if (c.kind !== 'availability_below') throw new Error('kind');
    const check = availabilityCheck(c, { workload: async () => ({ ...counters }) });
    const add = (ok: number, bad: number) => {
      counters.requests += ok + bad;
      counters.succeeded += ok;
      counters.failed += bad;
    };
    expect(await check.run(0, true)).toEqual({ kind: 'ok' }); // no request yet: nothing to judge
    add(10, 10); // t 0..500: 50%
    expect(await check.run(500, true)).toMatchObject({ kind: 'trip', value: 50 });
    add(30, 0); // t 500..1000
    expect(await check.run(1000, true)).toMatchObject({ kind: 'ok', value: 80 }); // 40/50 over 0..1000
    add(20, 0); // t 1000..1500: the window is 500..1500 → 50/50
    expect(await check.run(1500, true)).toMatchObject({ kind: 'ok', value: 100 });
    add(2, 8); // t 1500..2000: window 1000..2000 → 22/30
    const v = await check.run(2000, true);
    expect(v).toMatchObject({ kind: 'trip', value: 73.3 });
    expect(v.kind === 'trip' && v.reason).toMatch(/73\.3% over the last 1000ms \(22\/30 requests\) is below 80%/);
  });

  it('before the first fault it samples but never trips', async () => {
    const counters = { requests: 10, succeeded: 0, failed: 10 };
    const c = one({ availability_below: { value: 80, window: 1000 } });
    if (c.kind !== 'availability_below') throw new Error('kind');
    const check = availabilityCheck(c, { workload: async () => ({ ...counters }) });
    await check.run(0, false);
    counters.requests += 10;
    counters.failed += 10;
    expect(await check.run(250, false)).toMatchObject({ kind: 'ok', value: 0 });
    expect(await check.run(500, true)).toMatchObject({ kind: 'trip', value: 0 });
  });

  it('min_requests: a window with fewer requests does not judge', async () => {
    const counters = { requests: 0, succeeded: 0, failed: 0 };
    const c = one({ availability_below: { value: 80, window: 1000, min_requests: 5 } });
    if (c.kind !== 'availability_below') throw new Error('kind');
    const check = availabilityCheck(c, { workload: async () => ({ ...counters }) });
    await check.run(0, true);
    counters.requests = 4;
    counters.failed = 4;
    expect(await check.run(250, true)).toEqual({ kind: 'ok' });
    counters.requests = 5;
    counters.failed = 5;
    expect(await check.run(500, true)).toMatchObject({ kind: 'trip', value: 0 });
  });

  it('counters that cannot be read are an error verdict, not a 0', async () => {
    const c = one({ availability_below: { value: 80, window: 1000 } });
    if (c.kind !== 'availability_below') throw new Error('kind');
    const check = availabilityCheck(c, {
      workload: async () => {
        throw new Error('target unreachable');
      },
    });
    expect(await check.run(0, true)).toEqual({
      kind: 'error',
      reason: 'workload counters unavailable: target unreachable',
    });
  });
});

describe('probe_failures: N consecutive failures', () => {
  it('a pass resets the count; N failures in a row trip it; a probe that throws is a failure', async () => {
    const answers: Array<boolean | 'throw'> = [false, false, true, false, 'throw', false];
    const c = one({ probe_failures: { agent: 'worker-1', count: 3 } });
    if (c.kind !== 'probe_failures') throw new Error('kind');
    const check = probeCheck(c, {
      agentHealth: async () => {
        const a = answers.shift();
        if (a === 'throw') throw new Error('no answer');
        return { healthy: a === true, problems: a ? [] : ['worker-1 is stopped'] };
      },
    });
    const values = [];
    for (let i = 0; i < 6; i++) values.push(await check.run(i * 250, true));
    expect(values.map((v) => v.kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'trip']);
    expect(values[5]).toMatchObject({ value: 3 });
    expect(values[5]!.kind === 'trip' && values[5]!.reason).toMatch(
      /worker-1 failed 3 probe\(s\) in a row \(last: worker-1 is stopped\)/,
    );
  });

  it('failures before the first fault are not counted', async () => {
    const c = one({ probe_failures: { url: 'http://127.0.0.1:9/h', count: 2 } });
    if (c.kind !== 'probe_failures') throw new Error('kind');
    const check = probeCheck(c, { probeUrl: async () => 'status 503' });
    await check.run(0, false);
    await check.run(250, false);
    expect(await check.run(500, true)).toMatchObject({ kind: 'ok', value: 1 });
    expect(await check.run(750, true)).toMatchObject({ kind: 'trip', value: 2 });
  });
});

describe('prometheus', () => {
  it('above / below thresholds; a failed query is an error verdict', async () => {
    const above = one({ prometheus: { url: 'http://p', query: 'q', above: 5 } });
    const below = one({ prometheus: { url: 'http://p', query: 'q', below: 5 } });
    if (above.kind !== 'prometheus' || below.kind !== 'prometheus') throw new Error('kind');
    let value = 5;
    const sources = { prometheus: async () => value };
    expect(await prometheusCheck(above, sources).run(0, true)).toEqual({ kind: 'ok', value: 5 });
    expect(await prometheusCheck(below, sources).run(0, true)).toEqual({ kind: 'ok', value: 5 });
    value = 6;
    expect(await prometheusCheck(above, sources).run(0, true)).toMatchObject({ kind: 'trip', value: 6 });
    value = 4;
    expect(await prometheusCheck(below, sources).run(0, true)).toMatchObject({ kind: 'trip', value: 4 });
    const failing = prometheusCheck(above, {
      prometheus: async () => {
        throw new Error('connection refused');
      },
    });
    expect(await failing.run(0, true)).toEqual({
      kind: 'error',
      reason: 'prometheus query q at http://p: connection refused',
    });
  });
});

describe('spend_above', () => {
  it('sums the tokens of the LLM calls recorded since it started (earlier ones do not count)', async () => {
    const ledger = createCallLedger();
    const call = (input: number, output: number) =>
      ledger.record({ kind: 'llm', started_ms: 0, ended_ms: 1, ok: true, faulted: false, tokens: { input, output } });
    call(1000, 1000); // before the run
    const c = one({ spend_above: { tokens: 100 } });
    if (c.kind !== 'spend_above') throw new Error('kind');
    const check = spendCheck(c, { calls: ledger });
    call(40, 10);
    ledger.record({ kind: 'tool', started_ms: 0, ended_ms: 1, ok: true, faulted: false });
    expect(await check.run(0, true)).toEqual({ kind: 'ok', value: 50 });
    call(40, 11);
    expect(await check.run(250, true)).toMatchObject({ kind: 'trip', value: 101 });
  });

  it('usd at the given price per million tokens', async () => {
    const ledger = createCallLedger();
    const c = one({ spend_above: { usd: 1, price: { input: 3, output: 15 } } });
    if (c.kind !== 'spend_above') throw new Error('kind');
    const check = spendCheck(c, { calls: ledger });
    ledger.record({
      kind: 'llm',
      started_ms: 0,
      ended_ms: 1,
      ok: true,
      faulted: false,
      tokens: { input: 100_000, output: 40_000 },
    });
    expect(await check.run(0, true)).toEqual({ kind: 'ok', value: 0.9 });
    ledger.record({
      kind: 'llm',
      started_ms: 0,
      ended_ms: 1,
      ok: true,
      faulted: false,
      tokens: { input: 0, output: 10_000 },
    });
    expect(await check.run(0, true)).toMatchObject({ kind: 'trip', value: 1.05 });
  });

  it('a target without a call ledger cannot evaluate it: refused with the reason', () => {
    expect(missingSource(one({ spend_above: { tokens: 1 } }), {})).toMatch(/no LLM proxy whose calls the arena sees/);
    expect(missingSource(one({ availability_below: { value: 1, window: 1 } }), {})).toMatch(/measures no workload/);
  });
});
