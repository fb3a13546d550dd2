/** `arena serve` end to end: live evolution is opt-in and announced; a blank API key is a usage error. */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

let s: ServeProcess | undefined;
afterEach(async () => {
  await s?.stop();
  s = undefined;
});

/** the start lines follow the URL line; wait until the one asked for is out */
async function startLine(p: ServeProcess, text: string): Promise<string> {
  for (let i = 0; i < 100 && !p.stdout().includes(text); i++) await new Promise((r) => setTimeout(r, 50));
  return p.stdout();
}

describe('arena serve hardening', () => {
  it('announces whether live evolution is on, and GET /arena/evolution tells the same', async () => {
    s = await startServe();
    expect(await startLine(s, 'live evolution')).toContain('live evolution off');
    expect((await http(s.url, 'GET', '/arena/evolution')).json).toMatchObject({ enabled: false });
    await s.stop();
    s = await startServe(['--evolve']);
    expect(await startLine(s, 'live evolution')).toContain('live evolution ON');
    expect((await http(s.url, 'GET', '/arena/evolution')).json).toMatchObject({ enabled: true, watched: 0 });
  });

  it('a blank --api-key is a usage error (exit 2), not "auth on" for a public bind', async () => {
    const r = await arena(['serve', '--host', '0.0.0.0', '--port', '0', '--api-key', '   ']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--api-key is blank');
  });

  it('SIGTERM during a scenario run: the run answers 200 with its partial report, then the server exits 0', async () => {
    s = await startServe();
    const yaml = await readFile(new URL('../../scenarios/leader-failover.yaml', import.meta.url), 'utf8');
    const run = http(s.url, 'POST', '/arena/scenario/run', {
      body: yaml,
      headers: { 'Content-Type': 'application/yaml' },
    });
    await new Promise((r) => setTimeout(r, 1500));
    const stopped = s.stop();
    const answer = await run;
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.text).toContain('interrupted');
    expect((await stopped).exitCode).toBe(0);
  });
});
