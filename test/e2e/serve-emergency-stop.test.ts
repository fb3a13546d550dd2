/**
 * The emergency stop on `arena serve` (DESIGN §16): `POST /arena/stop` stops the survival the server
 * runs (status `stopped`) and reverts every active fault at once, also one applied through a fault route;
 * `arena stop` on the serve process does the same through its stop file, and the server keeps serving.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { waitFor } from '../helpers/process-fleet.js';
import { startServe, type ServeProcess } from './serve-helpers.js';

let state = '';
let serve: ServeProcess | undefined;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'arena-serve-stop-'));
});
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  rmSync(state, { recursive: true, force: true });
});

const KEY = 'k'.repeat(32);
const call = async (url: string, method: string, path: string, body?: unknown, key: string | null = KEY) => {
  const res = await fetch(url + path, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json().catch(() => undefined)) as Record<string, unknown> };
};

interface Agent {
  id: string;
  status: string;
}

async function pausedWhileSurvivalRuns(url: string): Promise<void> {
  expect((await call(url, 'POST', '/arena/survival', { duration: '60s', interval: '300ms', seed: 3 })).status).toBe(
    202,
  );
  expect((await call(url, 'POST', '/arena/agent/agent-3/pause', {})).status).toBe(200);
  const agents = (await call(url, 'GET', '/api/v1/agents')).json as unknown as { agents?: Agent[] } | Agent[];
  const list = Array.isArray(agents) ? agents : (agents.agents ?? []);
  expect(list.find((a) => a.id === 'agent-3')?.status).toBe('paused');
}

describe('the emergency stop on arena serve', () => {
  it('POST /arena/stop needs the key, stops the survival (stopped) and reverts every fault, and the server keeps serving', async () => {
    serve = await startServe(['--seed', '1'], { ARENA_API_KEY: KEY, ARENA_STATE_DIR: state });
    await pausedWhileSurvivalRuns(serve.url);
    expect((await call(serve.url, 'POST', '/arena/stop', undefined, null)).status).toBe(401);
    expect((await call(serve.url, 'POST', '/arena/stop', { all: true })).status).toBe(400);

    const stop = await call(serve.url, 'POST', '/arena/stop');
    expect(stop.status).toBe(200);
    expect(stop.json.stopped_runs).toEqual(['survival']);
    const reverted = stop.json.reverted_faults as Array<{ kind: string; target: string }>;
    expect(reverted).toContainEqual(expect.objectContaining({ kind: 'pause_agent', target: 'agent-3' }));
    const report = (await call(serve.url, 'GET', '/arena/survival/report')).json;
    expect(report.status).toBe('stopped');
    const active = await call(serve.url, 'GET', '/arena/dashboard');
    expect(JSON.stringify(active.json)).not.toContain('"paused"');
    // still serving, nothing left to stop
    expect((await call(serve.url, 'POST', '/arena/stop')).json).toEqual({ stopped_runs: [], reverted_faults: [] });
  });

  it('arena stop --all reaches the server through the run directory; the server stops its runs and stays up', async () => {
    serve = await startServe(['--seed', '1'], { ARENA_API_KEY: KEY, ARENA_STATE_DIR: state });
    await pausedWhileSurvivalRuns(serve.url);
    const ps = await arena(['ps', '--json'], { env: { ARENA_STATE_DIR: state } });
    const runs = (JSON.parse(ps.stdout) as { runs: Array<{ command: string; url: string }> }).runs;
    expect(runs).toEqual([expect.objectContaining({ command: 'serve', url: serve.url })]);

    const stop = await arena(['stop', '--all'], { env: { ARENA_STATE_DIR: state } });
    expect(stop.exitCode, stop.stderr).toBe(0);
    expect(stop.stdout).toMatch(/^stopped serve-[0-9a-f]{8} \(serve, pid \d+\)/);
    await waitFor(
      async () => (await call(serve!.url, 'GET', '/arena/survival/report')).json.status === 'stopped',
      10_000,
      'the survival report, stopped',
    );
    expect((await call(serve.url, 'POST', '/arena/stop')).json).toEqual({ stopped_runs: [], reverted_faults: [] });
    expect(serve.proc.exitCode).toBeNull();
  });
});
