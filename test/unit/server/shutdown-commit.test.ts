/**
 * A shutdown that runs out of time answers what is still running with a 503,
 * except a request whose handler committed (an action applied, its record on
 * the way): a 503 could follow its record, so it answers for itself. A handler
 * that commits once the shutdown has begun is refused, with nothing done.
 */
import { describe, expect, it } from 'vitest';
import { Router } from '../../../src/server/router.js';
import { serve } from './helpers.js';

function later(): { promise: Promise<void>; release(): void } {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

describe('arena serve shutting down with handlers in flight', () => {
  it('a committed handler is answered by itself past the grace time; an uncommitted one gets a 503; a late commit is refused', async () => {
    const router = new Router({ log: () => {} });
    const work = later();
    const beforeCommit = later();
    let applied = 0;
    router.post('/committed', async (ctx) => {
      await Promise.resolve();
      ctx.commit();
      applied++;
      await work.promise;
      return { recorded: true };
    });
    router.post('/plain', async () => {
      await work.promise;
      return { done: true };
    });
    router.post('/late', async (ctx) => {
      await beforeCommit.promise;
      ctx.commit();
      applied++;
      return { recorded: true };
    });
    const s = await serve(router);
    const post = (path: string) =>
      fetch(`${s.url}${path}`, { method: 'POST' }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const committed = post('/committed');
    const plain = post('/plain');
    const late = post('/late');
    await expect.poll(() => applied, { timeout: 10_000 }).toBe(1);

    const closing = s.close();
    beforeCommit.release();
    // the plain one is cut short once the grace time (500 ms) is over; the committed one still waits
    expect(await plain).toEqual({ status: 503, body: expect.objectContaining({ code: 'unavailable' }) });
    expect(await late).toEqual({
      status: 503,
      body: expect.objectContaining({ error: 'server is shutting down: nothing was applied' }),
    });
    work.release();
    expect(await committed).toEqual({ status: 200, body: { recorded: true } });
    await closing;
    expect(applied).toBe(1);
  });
});
