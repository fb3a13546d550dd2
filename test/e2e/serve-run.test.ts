/** `--serve [PORT]` on run commands: a second client watches the run live on /arena/stream. */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ARENA_BIN, REPO_ROOT } from '../helpers/cli.js';
import { frameJson, openSse } from '../helpers/sse.js';

describe('arena survival --serve', () => {
  it('serves the run events while the run goes on, behind ARENA_API_KEY, and ends the stream after', async () => {
    const proc = execa(
      'node',
      [ARENA_BIN, 'survival', '--duration', '1500ms', '--interval', '250ms', '--seed', '4', '--serve', '0', '--json'],
      {
        reject: false,
        cwd: REPO_ROOT,
        extendEnv: false,
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1', ARENA_API_KEY: 'run-key' },
        timeout: 30_000,
      },
    );
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      proc.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        const m = /serving run events on (http:\/\/\S+)\/arena\/stream \(auth: on\)/.exec(err);
        if (m) resolve(m[1]!);
      });
      void proc.then(() => reject(new Error(`no URL printed: ${err}`)));
    });
    const denied = await fetch(`${url}/arena/stream`);
    expect(denied.status).toBe(401);
    const conn = await openSse({
      url: `${url}/arena/stream`,
      headers: { 'X-API-Key': 'run-key', 'Last-Event-ID': '0' },
    });
    const action = await conn.waitFor(
      (f) => f.event === 'arena.action.executed' || f.event === 'arena.action.failed',
      10_000,
    );
    expect(frameJson<{ data: { type: string } }>(action).data.type).toBe('action');
    await conn.waitFor((f) => f.event === 'run.finished', 15_000);
    await conn.ended;
    expect(conn.frames.at(-1)!.event).toBe('shutdown');
    const ids = conn.frames.filter((f) => f.id).map((f) => Number(f.id));
    expect(ids).toEqual(ids.map((_, i) => i + 1));
    expect(conn.frames.find((f) => f.id === '1')!.event).toBe('run.started');
    const r = await proc;
    expect(r.exitCode).toBe(0);
    // --json keeps stdout for the report alone
    expect(JSON.parse(String(r.stdout)).schema_version).toBe(1);
  });
});
