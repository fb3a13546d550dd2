/**
 * A PostgreSQL restart under a live store: subscribers wait for it and carry
 * on (an SSE stream does not end), and an append during the restart goes
 * through once the server is back. A cluster of its own: the run's shared one
 * cannot be stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresEventStore } from '../../../src/events/postgres.js';
// @ts-expect-error plain ESM script without types, shared with the benchmarks
import { startCluster } from '../../../scripts/pg-cluster.mjs';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('PostgresEventStore through a restart of PostgreSQL', () => {
  it('live and replaying subscribers survive the restart and get what is appended after it', async () => {
    const cluster = await startCluster();
    cleanups.push(() => cluster.stop());
    const store = new PostgresEventStore({
      url: cluster.urlFor('postgres'),
      pollIntervalMs: 50,
      connectTimeoutMs: 1000,
    });
    cleanups.push(() => store.close());
    await store.append('s', [{ type: 'before', data: 1 }], 0);

    const seen: string[] = [];
    const ac = new AbortController();
    const ended: string[] = [];
    const follow = (name: string, from: number | undefined) =>
      (async () => {
        for await (const e of store.subscribe({}, from, { signal: ac.signal })) seen.push(`${name} ${e.type}`);
        ended.push(name);
      })().catch((err: unknown) => ended.push(`${name} threw ${(err as Error).message}`));
    const readers = [follow('live', undefined), follow('replay', 0)];
    await expect.poll(() => seen, { timeout: 10_000 }).toContain('replay before');

    await cluster.stopServer();
    // a wake-up while the server is gone (a NOTIFY or poll that raced the shutdown): the shared read fails
    (store as unknown as { follower: { wakeAll(): void } }).follower.wakeAll();
    await new Promise((r) => setTimeout(r, 500));
    await cluster.startServer();
    await store.append('s', [{ type: 'after', data: 2 }], 1);
    await expect
      .poll(() => [...seen].sort(), { timeout: 30_000 })
      .toEqual(['live after', 'replay after', 'replay before']);
    expect(ended).toEqual([]);
    ac.abort();
    await Promise.all(readers);
  }, 120_000);
});
