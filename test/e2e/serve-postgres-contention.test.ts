/**
 * Several `arena serve` processes on one PostgreSQL database, hammered at once:
 * every action answered is one event in the shared `arena` stream, with
 * versions 1..n and no gap. And PostgreSQL going away mid-run: an action is
 * recorded (a restart within the retry window is bridged) or its answer says
 * it was not (503), and while the database stays down nothing more is applied.
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createDatabase } from '../helpers/postgres.js';
// @ts-expect-error plain ESM script without types, shared with the benchmarks
import { startCluster } from '../../scripts/pg-cluster.mjs';
import { http, startServe, type HttpResult, type ServeProcess } from './serve-helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(url: string): Promise<ServeProcess> {
  const s = await startServe(['--store', url]);
  cleanups.push(() => s.stop());
  return s;
}

/**
 * a fault every server can take any number of times at once: a short slow-down; every fourth is a
 * resume of an agent that is not paused, which runs and fails (422) and is recorded too
 */
function act(base: string, i: number): Promise<HttpResult> {
  const body =
    i % 4 === 0
      ? { type: 'resume_agent', target_id: 'agent-1' }
      : { type: 'slow_agent', target_id: `agent-${2 + (i % 2)}`, metadata: { duration: '50ms', delay: '1ms' } };
  return http(base, 'POST', '/arena/actions', { body });
}

/** 200 (applied) and 422 (could not be applied) are answers of an action that ran and was recorded */
const answered = (r: HttpResult) => r.status === 200 || r.status === 422;

/** the other answers, grouped by status, code and message: a failure says why, not only how many */
function unanswered(replies: HttpResult[]): string {
  const groups = new Map<string, number>();
  for (const r of replies.filter((x) => !answered(x))) {
    // action ids would make every message its own group
    const message = String(r.json?.error ?? r.text).replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/g, 'ID');
    const why = `${r.status} ${r.json?.code ?? ''} ${message.slice(0, 200)}`;
    groups.set(why, (groups.get(why) ?? 0) + 1);
  }
  return [...groups].map(([why, n]) => `${n} × ${why}`).join('\n');
}

async function arenaVersions(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>(
      "SELECT version FROM arena_events WHERE stream_id = 'arena' ORDER BY version",
    );
    return rows.map((r) => Number(r.version));
  } finally {
    await client.end();
  }
}

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('arena serve × N on one PostgreSQL', () => {
  for (const servers of [2, 3]) {
    it(`${servers} servers, 2 × 200 concurrent actions: as many events as actions answered, versions contiguous`, async () => {
      const db = await createDatabase(`contend${servers}`);
      cleanups.push(() => db.drop());
      const procs = await Promise.all(Array.from({ length: servers }, () => serve(db.url)));
      const N = 200;
      const replies = await Promise.all(Array.from({ length: 2 * N }, (_, i) => act(procs[i % servers]!.url, i)));
      const statuses = new Map<number, number>();
      for (const r of replies) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      // nothing silent: every answer is recorded-and-answered; here no store failure, so all of them
      expect(Object.fromEntries(statuses), unanswered(replies)).toEqual({ 200: (3 * 2 * N) / 4, 422: (2 * N) / 4 });
      expect(await arenaVersions(db.url)).toEqual(oneTo(replies.filter(answered).length));
      // the servers counted no failure of their own either
      for (const p of procs) {
        const stats = (await http(p.url, 'GET', '/arena/stats')).json;
        expect(stats.sink_errors, stats.last_error).toBe(0);
      }
    }, 180_000);
  }

  it('PostgreSQL stopped mid-run: a restart within the retry window is bridged; a longer outage is a 503 for the action that ran and a refusal, nothing applied, for the next; every answered action is recorded', async () => {
    const cluster = await startCluster();
    cleanups.push(() => cluster.stop());
    const url = cluster.urlFor('postgres');
    const server = await serve(url);
    const before = await Promise.all([0, 1, 2, 3].map((i) => act(server.url, i)));
    expect(before.every(answered)).toBe(true);

    // a restart: the action waits for the database and is recorded
    await cluster.stopServer();
    const during = act(server.url, 5);
    await new Promise((r) => setTimeout(r, 500));
    await cluster.startServer();
    const bridged = await during;
    expect(bridged.status, bridged.text).toBe(200);

    // an outage longer than the retry window (15 s): the action that ran says it was not recorded
    await cluster.stopServer();
    const lost = await http(server.url, 'POST', '/arena/actions', {
      body: { type: 'network_partition', target_id: 'agent-2', metadata: { duration: '1m' } },
    });
    expect(lost.status, lost.text).toBe(503);
    expect(lost.json).toMatchObject({
      code: 'event_not_recorded',
      details: { result: { success: true, action: { type: 'network_partition', target_id: 'agent-2' } } },
    });
    // the next is refused before anything is applied
    const refused = await http(server.url, 'POST', '/arena/actions', {
      body: { type: 'network_partition', target_id: 'agent-3', metadata: { duration: '1m' } },
    });
    expect(refused.status, refused.text).toBe(503);
    expect(refused.json).toMatchObject({ code: 'event_store_unavailable' });

    await cluster.startServer();
    const after = await act(server.url, 6);
    expect(after.status, after.text).toBe(200);

    const answeredCount = [...before, bridged, after].filter(answered).length;
    expect(await arenaVersions(url)).toEqual(oneTo(answeredCount));
    // the partition that ran is in the server's history, the refused one is not
    const history = (await http(server.url, 'GET', '/arena/history')).json.results as Array<{
      action: { type: string; target_id: string };
    }>;
    expect(history.filter((r) => r.action.type === 'network_partition').map((r) => r.action.target_id)).toEqual([
      'agent-2',
    ]);
  }, 180_000);
});
