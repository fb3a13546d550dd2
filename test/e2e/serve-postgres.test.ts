/**
 * Two `arena serve` processes on one PostgreSQL database share one history:
 * an action through one reaches the SSE clients of the other, in order, with
 * the same ids, and Last-Event-ID resumes across them. Plus the store URL's
 * failures as a user sees them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { execa } from 'execa';
import { frameJson, openSse, type SseConnection } from '../helpers/sse.js';
import { arena as runCli, REPO_ROOT } from '../helpers/cli.js';
import { createDatabase, clusterUrl } from '../helpers/postgres.js';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(args: string[], env: Record<string, string> = {}): Promise<ServeProcess> {
  const s = await startServe(args, env);
  cleanups.push(() => s.stop());
  return s;
}

function sse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return openSse({ url: `${url}/arena/stream`, headers }).then((c) => {
    cleanups.push(() => c.close());
    return c;
  });
}

const ids = (c: SseConnection) =>
  c.frames
    .filter((f) => f.id)
    .map(
      (f) => `${f.id} ${f.event} ${frameJson<{ data: { action: { target_id: string } } }>(f).data.action.target_id}`,
    );

describe('arena serve on PostgreSQL', () => {
  it("two servers share one SSE history: an action through one reaches the other's clients with the same ids, and Last-Event-ID resumes across them", async () => {
    const db = await createDatabase('serve');
    cleanups.push(() => db.drop());
    const a = await serve(['--store', db.url]);
    // the other through ARENA_STORE
    const b = await serve([], { ARENA_STORE: db.url });
    const onA = await sse(a.url);
    const onB = await sse(b.url);
    await Promise.all([onA.waitFor((f) => f.event === 'ready'), onB.waitFor((f) => f.event === 'ready')]);

    expect((await http(a.url, 'POST', '/arena/agent/agent-2/kill')).status).toBe(200);
    await onB.waitFor((f) => f.id === '1');
    expect((await http(b.url, 'POST', '/arena/agent/agent-3/kill')).status).toBe(200);
    await http(a.url, 'POST', '/arena/agent/agent-1/resume'); // not paused: a failed action
    await Promise.all([onA.waitFor((f) => f.id === '3'), onB.waitFor((f) => f.id === '3')]);
    const expected = [
      '1 arena.action.executed agent-2',
      '2 arena.action.executed agent-3',
      '3 arena.action.failed agent-1',
    ];
    expect(ids(onA)).toEqual(expected);
    expect(ids(onB)).toEqual(expected);

    // a client of B goes away after id 1 and comes back to A
    onB.close();
    await http(b.url, 'POST', '/arena/agent/agent-1/kill');
    const resumed = await sse(a.url, { 'Last-Event-ID': '1' });
    await resumed.waitFor((f) => f.id === '4');
    expect(ids(resumed)).toEqual([...expected.slice(1), '4 arena.action.executed agent-1']);
    expect(frameJson(await resumed.waitFor((f) => f.event === 'ready'))).toMatchObject({
      current_id: 4,
      resumed_from: 1,
    });
  }, 60_000);

  it('arena flight reads a PostgreSQL store that a run recorded into', async () => {
    const db = await createDatabase('flight');
    cleanups.push(() => db.drop());
    const run = await runCli(['scenario', 'run', 'test/fixtures/scenarios/quick-pass.yaml', '--seed', '3', '--json'], {
      env: { ARENA_STORE: db.url },
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const flight = await runCli(['flight', '--store', db.url, '--json']);
    expect(flight.exitCode, flight.stderr).toBe(0);
    const doc = JSON.parse(flight.stdout) as { store: string; summary: { actions: number }; runs: unknown[] };
    expect(doc.summary.actions).toBeGreaterThan(0);
    expect(doc.runs).toHaveLength(1);
    expect(doc.store).toContain('***@127.0.0.1');
    expect(flight.stdout).not.toContain(new URL(db.url).password);
  }, 60_000);

  it('an unreachable database is exit 3 naming host and port; a wrong password and a missing database say so (exit 2); no password anywhere', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const down = await runCli([
      'serve',
      '--port',
      '0',
      '--store',
      `postgres://arena:hunter2-pw@127.0.0.1:${port}/arena`,
    ]);
    expect(down.exitCode).toBe(3);
    expect(down.stderr).toContain(`cannot reach PostgreSQL at 127.0.0.1:${port}`);
    expect(down.stdout + down.stderr).not.toContain('hunter2-pw');

    const wrong = new URL(clusterUrl());
    wrong.password = 'hunter2-pw';
    const denied = await runCli(['flight', '--store', wrong.toString()]);
    expect(denied.exitCode).toBe(2);
    expect(denied.stderr).toContain('refused user "arena": wrong password');
    expect(denied.stdout + denied.stderr).not.toContain('hunter2-pw');

    const missing = new URL(clusterUrl());
    missing.pathname = '/no_such_database';
    const none = await runCli(['scenario', 'run', 'scenarios/leader-failover.yaml', '--store', missing.toString()]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('has no database "no_such_database"');
    expect(none.stdout + none.stderr).not.toContain(missing.password);
  }, 60_000);

  it('pg is loaded only for a postgres:// store: not by importing the package, not by a SQLite run', async () => {
    const trace = (args: string[]) =>
      execa('node', ['--import', './test/fixtures/trace-imports.mjs', ...args], {
        cwd: REPO_ROOT,
        reject: false,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
      });
    const loadsPg = (stderr: string) => /^IMPORT pg$/m.test(stderr);
    const pkg = await trace(['--input-type=module', '-e', "await import('./dist/index.js')"]);
    expect(pkg.stderr).toMatch(/^IMPORT zod$/m); // the trace works
    expect(loadsPg(pkg.stderr)).toBe(false);
    const sqlite = await trace(['bin/arena.js', 'flight', '--store', 'memory']);
    expect(loadsPg(sqlite.stderr)).toBe(false);
    const postgres = await trace(['bin/arena.js', 'flight', '--store', 'postgres://arena@127.0.0.1:1/x']);
    expect(loadsPg(postgres.stderr)).toBe(true);
  });
});
