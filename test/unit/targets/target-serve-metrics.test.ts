/**
 * Issue 36: `arena target serve` answers GET /metrics (DESIGN §17) behind its
 * bearer token: faults applied and refused through the protocol, active faults.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';
import { serveTargetProtocol, type ServedTarget } from '../../../src/targets/protocol-server.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

async function served(): Promise<ServedTarget> {
  const target = createEmbeddedTarget({ seed: 1 });
  await target.start();
  open.push({ close: () => target.stop() });
  const s = await serveTargetProtocol(target, { token: 'tok' });
  open.push(s);
  return s;
}

const auth = { Authorization: 'Bearer tok' };

describe('GET /metrics on arena target serve', () => {
  it('counts applied and refused faults and shows the active one; 401 without the token', async () => {
    const s = await served();
    const post = (body: object) =>
      fetch(`${s.url}/v1/faults`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ id: 'f1', type: 'pause_agent', target_id: 'agent-1', duration_ms: 60_000 })).status).toBe(201);
    expect((await post({ id: 'f2', type: 'kill_agent', target_id: 'nobody' })).status).toBe(404);
    // malformed: no attempt, not counted
    expect((await post({ id: 'f3', type: 'kill_agent' })).status).toBe(400);

    expect((await fetch(`${s.url}/metrics`)).status).toBe(401);
    const r = await fetch(`${s.url}/metrics`, { headers: auth });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await r.text();
    expect(text).toContain('arena_faults_injected_total{type="pause_agent",target="agent-1",outcome="applied"} 1');
    expect(text).toContain('arena_faults_injected_total{type="kill_agent",target="nobody",outcome="refused"} 1');
    expect(text).not.toContain('target=""');
    expect(text).toContain('arena_faults_active{type="pause_agent",target="agent-1"} 1');
  });
});
