/**
 * Flight record queries as SQL: every store answers exactly what the
 * in-memory filter answers, and SQLite and PostgreSQL use their indexes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MemoryEventStore } from '../../../src/events/memory.js';
import { SqliteEventStore } from '../../../src/events/sqlite.js';
import { PostgresEventStore } from '../../../src/events/postgres.js';
import {
  ANY_VERSION,
  matchesQuery,
  type EventQuery,
  type QueryableEventStore,
  type StoredEvent,
} from '../../../src/arena/event-store.js';
import { createDatabase } from '../../helpers/postgres.js';

const STREAM = 'flight.timeline';
const agents = ['agent-1', 'agent-2', 'agent-3'];
const categories = ['process', 'leadership', 'network'];

// 300 records over one hour, some without agent_id or success, one with a quote in its session
const records = Array.from({ length: 300 }, (_, i) => ({
  id: `a${i}`,
  at: new Date(Date.UTC(2026, 0, 1, 12, 0, i * 12)).toISOString(),
  ...(i % 5 === 0 ? {} : { agent_id: agents[i % 3] }),
  target_id: agents[(i + 1) % 3],
  category: categories[i % 3],
  type: i % 2 ? 'kill_agent' : 'pause_agent',
  ...(i % 7 === 0 ? {} : { success: i % 4 !== 0 }),
  session: i % 11 === 0 ? "it's" : 's1',
}));

let dir = '';
let drop: (() => Promise<void>) | undefined;
let pgUrl = '';
const stores: Array<[string, QueryableEventStore & { close?: () => unknown }]> = [];
let all: StoredEvent[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'arena-rq-'));
  const db = await createDatabase('records');
  drop = db.drop;
  pgUrl = db.url;
  stores.push(
    ['memory', new MemoryEventStore()],
    ['sqlite', new SqliteEventStore({ path: join(dir, 'a.db'), synchronous: 'NORMAL' })],
    ['postgres', new PostgresEventStore({ url: db.url })],
  );
  for (const [, store] of stores) {
    for (let i = 0; i < records.length; i += 50)
      await store.append(
        STREAM,
        records.slice(i, i + 50).map((r) => ({ type: 'flight.action', data: r })),
        ANY_VERSION,
      );
    await store.append(
      'flight.diagnostics',
      [{ type: 'flight.diagnostic', data: { ...records[0], category: 'leadership' } }],
      ANY_VERSION,
    );
  }
  all = await stores[0]![1].read(STREAM);
}, 30_000);

afterAll(async () => {
  for (const [, s] of stores.splice(0)) await s.close?.();
  await drop?.();
  rmSync(dir, { recursive: true, force: true });
});

const queryArb: fc.Arbitrary<EventQuery> = fc
  .record(
    {
      agent: fc.constantFrom(...agents, 'nobody'),
      category: fc.constantFrom(...categories),
      type: fc.constantFrom('kill_agent', 'pause_agent'),
      success: fc.boolean(),
      session: fc.constantFrom('s1', "it's"),
      since: fc.integer({ min: 0, max: 3600 }),
      span: fc.integer({ min: 0, max: 3600 }),
      last: fc.integer({ min: 1, max: 40 }),
    },
    { requiredKeys: [] },
  )
  .map((q) => {
    const where: NonNullable<EventQuery['where']>[number][] = [];
    if (q.agent !== undefined) where.push({ fields: ['agent_id', 'target_id'], equals: q.agent });
    if (q.category !== undefined) where.push({ fields: ['category'], equals: q.category });
    if (q.type !== undefined) where.push({ fields: ['type'], equals: q.type });
    if (q.success !== undefined) where.push({ fields: ['success'], equals: q.success, orMissing: true });
    if (q.session !== undefined) where.push({ fields: ['session'], equals: q.session });
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();
    return {
      stream_id: STREAM,
      where,
      ...(q.since !== undefined ? { since: t(q.since) } : {}),
      ...(q.since !== undefined && q.span !== undefined ? { until: t(q.since + q.span) } : {}),
      ...(q.last !== undefined ? { last: q.last } : {}),
    };
  });

describe('record queries', () => {
  it('every store returns exactly what the in-memory filter returns, in stream order', async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, async (query) => {
        const matched = all.filter((e) => matchesQuery(e, query));
        const expected = (query.last !== undefined ? matched.slice(-query.last) : matched).map(
          (e) => (e.data as { id: string }).id,
        );
        for (const [name, store] of stores) {
          const got = (await store.queryEvents(query)).map((e) => (e.data as { id: string }).id);
          expect(got, `${name}: ${JSON.stringify(query)}`).toEqual(expected);
        }
      }),
      { numRuns: 60, seed: 18 },
    );
  }, 60_000);

  it('SQLite answers category, type and time queries from its partial expression indexes', () => {
    const store = stores[1]![1] as SqliteEventStore;
    const plan = (query: EventQuery) => {
      const { sql, args } = store.recordSql(query);
      return (store.database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>)
        .map((r) => r.detail)
        .join('; ');
    };
    expect(plan({ stream_id: STREAM, where: [{ fields: ['category'], equals: 'leadership' }] })).toMatch(
      /USING INDEX events_record_0_category/,
    );
    expect(
      plan({
        stream_id: STREAM,
        where: [{ fields: ['type'], equals: 'kill_agent' }],
        since: '2026-01-01T12:30:00.000Z',
      }),
    ).toMatch(/USING INDEX events_record_0_(type|at)/);
    expect(plan({ stream_id: STREAM, since: '2026-01-01T12:30:00.000Z', last: 5 })).toMatch(
      /USING INDEX events_record_0_at/,
    );
    // the agent (either of two fields) reads the flight stream alone, through one of its partial indexes, not the file
    expect(plan({ stream_id: STREAM, where: [{ fields: ['agent_id', 'target_id'], equals: 'agent-1' }] })).toMatch(
      /USING INDEX events_record_0_/,
    );
  });

  it('PostgreSQL answers an agent or time query from its partial expression indexes', async () => {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      await client.query('ANALYZE arena_events');
      // a table this small would be scanned anyway: ask what the planner does once scans are expensive
      await client.query('SET enable_seqscan = off');
      const plan = async (sql: string) =>
        (await client.query(`EXPLAIN ${sql}`)).rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      expect(
        await plan(
          `SELECT * FROM arena_events WHERE stream_id = 'flight.timeline' AND (data::jsonb -> 'agent_id') = '"agent-1"'::jsonb`,
        ),
      ).toMatch(/arena_events_record_agent_id/);
      // the agent is either of two fields: a bitmap OR of both indexes
      expect(
        await plan(
          `SELECT * FROM arena_events WHERE stream_id = 'flight.timeline' AND ((stream_id = 'flight.timeline' AND (data::jsonb -> 'agent_id') = '"agent-1"'::jsonb) OR (stream_id = 'flight.timeline' AND (data::jsonb -> 'target_id') = '"agent-1"'::jsonb))`,
        ),
      ).toMatch(/BitmapOr[\s\S]*arena_events_record_agent_id[\s\S]*arena_events_record_target_id/);
      expect(
        await plan(
          `SELECT * FROM arena_events WHERE stream_id = 'flight.timeline' AND ((data::jsonb ->> 'at') COLLATE "C") >= '2026-01-01T12:30:00.000Z'`,
        ),
      ).toMatch(/arena_events_record_at/);
    } finally {
      await client.end();
    }
  });
});
