import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CHECK_EVERY_MS, parseStopWhen } from '../../../../src/arena/safety/stop-when.js';
import { isArenaError } from '../../../../src/shared/errors.js';
import { validateScenario } from '../../../../src/arena/scenario/validate.js';

function problems(input: unknown): string {
  try {
    parseStopWhen(input);
  } catch (err) {
    expect(isArenaError(err, 'invalid_stop_when')).toBe(true);
    expect((err as { exitCode: number }).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('stop_when parser (DESIGN §16)', () => {
  it('reads every kind of condition into plain data, checks at least every 250 ms', () => {
    const s = parseStopWhen({
      availability_below: { value: 80, window: '2s' },
      probe_failures: { url: 'http://127.0.0.1:1/healthz', count: 2, every: '1s' },
      prometheus: { url: 'http://127.0.0.1:9090', query: 'sum(up)', below: 1, every: '2s', token_env: 'PROM_TOKEN' },
      spend_above: { tokens: 1000 },
      on_error: 'continue',
    });
    expect(s.onError).toBe('continue');
    expect(s.conditions).toEqual([
      { kind: 'availability_below', value: 80, windowMs: 2000, minRequests: 1 },
      // a probe's `every` is capped at the contract's 250 ms
      { kind: 'probe_failures', url: 'http://127.0.0.1:1/healthz', count: 2, everyMs: 250, timeoutMs: 1000 },
      {
        kind: 'prometheus',
        url: 'http://127.0.0.1:9090',
        query: 'sum(up)',
        below: 1,
        everyMs: 2000,
        timeoutMs: 2000,
        tokenEnv: 'PROM_TOKEN',
        headers: {},
      },
      { kind: 'spend_above', tokens: 1000 },
    ]);
  });

  it('on_error defaults to stop', () => {
    expect(parseStopWhen({ spend_above: { tokens: 5 } }).onError).toBe('stop');
  });

  it.each([
    [{}, /names no condition/],
    [{ availability_below: { value: 120, window: '2s' } }, /availability_below\.value: must be a percentage/],
    [{ availability_below: { value: 80, window: 0 } }, /availability_below\.window: must be greater than 0/],
    [{ availability_below: { value: 80 } }, /availability_below\.window/],
    [{ probe_failures: { count: 2 } }, /give exactly one of agent .* or url/],
    [{ probe_failures: { agent: 'a', url: 'http://x', count: 2 } }, /give exactly one of agent/],
    [{ probe_failures: { agent: 'a', count: 0 } }, /probe_failures\.count: must be an integer ≥ 1/],
    [{ prometheus: { url: 'ftp://x', query: 'up', above: 1 } }, /prometheus\.url: must be an http/],
    [{ prometheus: { url: 'http://x', query: 'up' } }, /give exactly one of above or below/],
    [{ prometheus: { url: 'http://x', query: 'up', above: 1, below: 2 } }, /give exactly one of above or below/],
    [{ spend_above: { usd: 2 } }, /spend_above\.price: usd needs price/],
    [{ spend_above: {} }, /give exactly one of tokens or usd/],
    [{ on_error: 'maybe', spend_above: { tokens: 1 } }, /on_error: must be stop or continue/],
    [{ availability: { value: 1 } }, /unknown key "availability" \(allowed: availability_below, /],
    ['availability_below', /must be a mapping of conditions/],
  ])('refuses %j, naming where', (input, message) => {
    expect(problems(input)).toMatch(message);
  });

  it('a scenario takes the same keys under config.stop_when, with its paths', () => {
    const ok = validateScenario({
      name: 's',
      config: { stop_when: { availability_below: { value: 80, window: '2s' } }, max_affected: '30%' },
      actions: [{ action: { type: 'kill_leader' } }],
    });
    expect(ok.errors).toEqual([]);
    expect(ok.scenario!.config.stop_when!.conditions[0]).toMatchObject({ kind: 'availability_below', windowMs: 2000 });
    expect(ok.scenario!.config.max_affected).toEqual({ percent: 30 });
    const bad = validateScenario({
      name: 's',
      config: { stop_when: { availability_below: { value: -1, window: '2s' } }, max_affected: 0 },
      actions: [{ action: { type: 'kill_leader' } }],
    });
    expect(bad.errors.map((e) => e.path)).toEqual(['config.stop_when.availability_below.value', 'config.max_affected']);
  });

  it('property: any valid stop_when parses to one condition per key, each checked at least every 250 ms (prometheus: its every)', () => {
    const duration = fc.integer({ min: 1, max: 3_600_000 });
    const availability = fc.record({ value: fc.double({ min: 0, max: 100, noNaN: true }), window: duration });
    const probe = fc.oneof(
      fc.record({ agent: fc.string({ minLength: 1 }), count: fc.integer({ min: 1, max: 100 }) }),
      fc.record(
        { url: fc.constant('http://127.0.0.1:9/x'), count: fc.integer({ min: 1, max: 100 }), every: duration },
        { requiredKeys: ['url', 'count'] },
      ),
    );
    const prometheus = fc.record({
      url: fc.constant('http://127.0.0.1:9090'),
      query: fc.string({ minLength: 1 }),
      above: fc.double({ noNaN: true, noDefaultInfinity: true }),
    });
    const spend = fc.oneof(
      fc.record({ tokens: fc.integer({ min: 1 }) }),
      fc.record({
        usd: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
        price: fc.record({
          input: fc.double({ min: 0, max: 100, noNaN: true }),
          output: fc.double({ min: 0, max: 100, noNaN: true }),
        }),
      }),
    );
    const input = fc
      .record(
        {
          availability_below: availability,
          probe_failures: probe,
          prometheus: prometheus,
          spend_above: spend,
          on_error: fc.constantFrom('stop', 'continue'),
        },
        { requiredKeys: [] },
      )
      .filter((r) => Object.keys(r).some((k) => k !== 'on_error'));
    const count = (v: unknown) => (v === undefined ? 0 : 1);
    fc.assert(
      fc.property(input, (raw) => {
        const s = parseStopWhen(raw);
        const expected =
          count(raw.availability_below) + count(raw.probe_failures) + count(raw.prometheus) + count(raw.spend_above);
        expect(s.conditions).toHaveLength(expected);
        expect(s.onError).toBe(raw.on_error ?? 'stop');
        for (const c of s.conditions)
          if (c.kind === 'probe_failures') expect(c.everyMs).toBeLessThanOrEqual(MAX_CHECK_EVERY_MS);
          else if (c.kind === 'prometheus') expect(c.everyMs).toBe(MAX_CHECK_EVERY_MS);
      }),
    );
  });

  it('property: any other input is a UsageError (exit 2), never a crash', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        try {
          parseStopWhen(raw);
        } catch (err) {
          expect(isArenaError(err, 'invalid_stop_when')).toBe(true);
        }
      }),
    );
  });
});
