import { describe, expect, it } from 'vitest';
import {
  createToolbox,
  evaluateExpression,
  ToolTimeoutError,
  type ToolDefinition,
} from '../../../../src/runtime/tools/index.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { NotFoundError, UsageError } from '../../../../src/shared/errors.js';

describe('built-in tools', () => {
  it('compute, lookup and format do real work', async () => {
    const tools = createToolbox({ clock: new ManualClock() });
    expect(tools.list().map((t) => t.name)).toEqual(['compute', 'lookup', 'format', 'sleep']);
    expect(await tools.call('compute', { expression: '2 * (3 + 4) - 2^3^2 / 64' })).toBe(6);
    expect(await tools.call('lookup', { key: ' Japan ' })).toBe('Tokyo');
    expect(await tools.call('format', { template: '{who} scored {n}', values: { who: 'ada', n: 7 } })).toBe(
      'ada scored 7',
    );
  });

  it('bad input is a typed error that says what is wrong', async () => {
    const tools = createToolbox({ clock: new ManualClock() });
    await expect(tools.call('compute', { expression: '1 / 0' })).rejects.toThrow(/division by zero/);
    await expect(tools.call('compute', { expression: '1 +' })).rejects.toBeInstanceOf(UsageError);
    await expect(tools.call('compute', {})).rejects.toThrow(/"expression" must be a string/);
    await expect(tools.call('lookup', { key: 'atlantis' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(tools.call('format', { template: '{x}', values: {} })).rejects.toThrow(/\{x\}/);
    await expect(tools.call('nope')).rejects.toThrow(/unknown tool "nope"/);
    expect(evaluateExpression('-(1.5e1) % 4')).toBe(-3);
  });
});

describe('createToolbox timeouts', () => {
  it('a call slower than timeoutMs rejects with ToolTimeoutError after every retry, and the tool sees the abort', async () => {
    const clock = new ManualClock();
    const aborts: unknown[] = [];
    const slow: ToolDefinition = {
      name: 'slow',
      description: 'waits forever unless aborted',
      run: (_args, { signal }) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => (aborts.push(signal.reason), reject(signal.reason))),
        ),
    };
    const tools = createToolbox({ clock, timeoutMs: 100, retries: 2, tools: [slow] });
    const call = tools.call('slow');
    const outcome = call.catch((e: unknown) => e);
    await clock.advance(299);
    expect(aborts).toHaveLength(2);
    await clock.advance(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ToolTimeoutError);
    expect((error as ToolTimeoutError).attempts).toBe(3);
    expect((error as ToolTimeoutError).code).toBe('tool_timeout');
    expect(aborts).toHaveLength(3);
    expect(tools.stats()).toEqual({ calls: 1, succeeded: 0, failed: 1, timeouts: 3, retries: 2 });
  });

  it('a retry succeeds when the second attempt is fast enough', async () => {
    const clock = new ManualClock();
    let attempts = 0;
    const flaky: ToolDefinition = {
      name: 'flaky',
      description: 'slow the first time',
      run: async (_args, { clock: c, signal }) => {
        attempts++;
        await c.sleep(attempts === 1 ? 500 : 10, signal);
        return attempts;
      },
    };
    const tools = createToolbox({ clock, timeoutMs: 100, retries: 1, tools: [flaky] });
    const call = tools.call('flaky');
    await clock.advance(110);
    expect(await call).toBe(2);
    expect(tools.stats()).toMatchObject({ succeeded: 1, timeouts: 1, retries: 1 });
  });

  it('setHanging makes every call hang until its timeout; turning it off restores service', async () => {
    const clock = new ManualClock();
    const tools = createToolbox({ clock, timeoutMs: 50, retries: 1 });
    tools.setHanging(true);
    expect(tools.isHanging).toBe(true);
    let settled = false;
    const call = tools.call('compute', { expression: '1+1' }).finally(() => (settled = true));
    const outcome = call.catch((e: unknown) => e);
    await clock.advance(99);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(await outcome).toBeInstanceOf(ToolTimeoutError);
    tools.setHanging(false);
    expect(await tools.call('compute', { expression: '1+1' })).toBe(2);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('tool errors are not retried; configure changes timeout and retries live', async () => {
    const clock = new ManualClock();
    const tools = createToolbox({ clock, timeoutMs: 50, retries: 3 });
    await expect(tools.call('lookup', { key: 'mars' })).rejects.toBeInstanceOf(NotFoundError);
    expect(tools.stats().retries).toBe(0);
    tools.configure({ timeoutMs: 1000, retries: 0 });
    const sleeping = tools.call('sleep', { ms: 500 });
    await clock.advance(500);
    expect(await sleeping).toBe(500);
    expect(() => tools.configure({ timeoutMs: 0 })).toThrow(UsageError);
    expect(() => tools.configure({ retries: -1 })).toThrow(UsageError);
  });

  it("the caller's abort signal cancels the call without retrying", async () => {
    const clock = new ManualClock();
    const tools = createToolbox({ clock, timeoutMs: 1000, retries: 3 });
    const controller = new AbortController();
    const call = tools.call('sleep', { ms: 5000 }, controller.signal).catch((e: unknown) => e);
    await clock.advance(10);
    controller.abort(new Error('caller gave up'));
    expect(((await call) as Error).message).toBe('caller gave up');
    expect(tools.stats()).toMatchObject({ failed: 1, retries: 0, timeouts: 0 });
  });

  it('works on the real clock with millisecond timings', async () => {
    const tools = createToolbox({ timeoutMs: 30, retries: 0 });
    const started = performance.now();
    await expect(tools.call('sleep', { ms: 1000 })).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(performance.now() - started).toBeLessThan(500);
    expect(await tools.call('sleep', { ms: 1 })).toBe(1);
  });
});
