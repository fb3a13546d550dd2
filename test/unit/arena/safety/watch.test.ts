import { describe, expect, it } from 'vitest';
import { startStopWatch, type StoppedBy } from '../../../../src/arena/safety/watch.js';
import { parseStopWhen } from '../../../../src/arena/safety/stop-when.js';
import { ManualClock } from '../../../../src/shared/clock.js';

function watch(input: unknown, sources: Parameters<typeof startStopWatch>[0]['sources']) {
  const clock = new ManualClock();
  const trips: StoppedBy[] = [];
  const errors: string[] = [];
  const w = startStopWatch({
    stopWhen: parseStopWhen(input),
    sources,
    clock,
    rel: () => clock.now(),
    onTrip: (s) => trips.push(s),
    onCheckError: (c, r) => errors.push(`${c}: ${r}`),
  });
  return { clock, trips, errors, w };
}

describe('the stop-condition watch', () => {
  it('checks every 250 ms; trips only once armed; trips at most 250 ms after the condition holds, once', async () => {
    let healthy = false;
    let asked = 0;
    const { clock, trips, w } = watch(
      { probe_failures: { agent: 'a', count: 1 } },
      {
        agentHealth: async () => {
          asked++;
          return { healthy, problems: healthy ? [] : ['down'] };
        },
      },
    );
    await clock.advance(1000);
    expect(trips).toEqual([]); // unhealthy, but no fault has landed yet
    healthy = true;
    w.arm();
    await clock.advance(1000);
    expect(asked).toBe(4 + 1); // armed checks: at arm, then every 250 ms (not before arm: probes wait for the fault)
    expect(trips).toEqual([]);
    healthy = false;
    const at = clock.now();
    await clock.advance(250);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ kind: 'probe_failures', value: 1, condition: 'probe_failures a ×1' });
    expect(trips[0]!.at_ms - at).toBeLessThanOrEqual(250);
    await clock.advance(1000);
    expect(trips).toHaveLength(1);
    expect(w.stoppedBy()).toEqual(trips[0]);
  });

  it('on_error: stop (the default) stops on a condition it cannot evaluate, with the reason', async () => {
    const { clock, trips, w } = watch(
      { prometheus: { url: 'http://p', query: 'up', below: 1 } },
      {
        prometheus: async () => {
          throw new Error('connection refused');
        },
      },
    );
    w.arm();
    await clock.advance(10);
    expect(trips).toEqual([
      {
        condition: 'prometheus up < 1',
        kind: 'prometheus',
        value: null,
        at_ms: 0,
        reason: 'could not be evaluated (on_error: stop): prometheus query up at http://p: connection refused',
      },
    ]);
  });

  it('on_error: continue tells the error and keeps checking; a later real crossing still trips', async () => {
    let value: number | Error = new Error('timeout');
    const { clock, trips, errors, w } = watch(
      { prometheus: { url: 'http://p', query: 'up', below: 1 }, on_error: 'continue' },
      {
        prometheus: async () => {
          if (value instanceof Error) throw value;
          return value;
        },
      },
    );
    w.arm();
    await clock.advance(600);
    expect(trips).toEqual([]);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    value = 0;
    await clock.advance(250);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatchObject({ value: 0 });
  });

  it('a slow check does not hold up the others', async () => {
    const counters = { requests: 0, succeeded: 0, failed: 0 };
    const { clock, trips, w } = watch(
      { prometheus: { url: 'http://p', query: 'up', below: 1 }, availability_below: { value: 50, window: 1000 } },
      {
        prometheus: () => new Promise<number>(() => undefined), // never answers
        workload: async () => ({ ...counters }),
      },
    );
    w.arm();
    await clock.advance(250);
    counters.requests = 10;
    counters.failed = 10;
    await clock.advance(250);
    expect(trips).toHaveLength(1);
    expect(trips[0]!.kind).toBe('availability_below');
  });

  it('stop() ends the checks: nothing trips after it', async () => {
    let asked = 0;
    const { clock, trips, w } = watch(
      { probe_failures: { agent: 'a', count: 1 } },
      {
        agentHealth: async () => {
          asked++;
          return { healthy: false, problems: [] };
        },
      },
    );
    w.stop();
    w.arm();
    await clock.advance(1000);
    expect(asked).toBe(0);
    expect(trips).toEqual([]);
    expect(clock.pendingTimers()).toBe(0);
  });
});
