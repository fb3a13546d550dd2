import { describe, expect, it } from 'vitest';
import { keepAliveWhile } from '../../../src/shared/keep-alive.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('keepAliveWhile', () => {
  it('holds one timer while the work runs and lets go when it resolves', async () => {
    const before = timers();
    let during = -1;
    const value = await keepAliveWhile(async () => {
      during = timers();
      return 42;
    });
    expect(value).toBe(42);
    expect(during).toBe(before + 1);
    expect(timers()).toBe(before);
  });

  it('lets go when the work throws, and the error goes up unchanged', async () => {
    const before = timers();
    const boom = new Error('boom');
    await expect(keepAliveWhile(() => Promise.reject(boom))).rejects.toBe(boom);
    expect(timers()).toBe(before);
  });
});
