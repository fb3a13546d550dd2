/**
 * Issue 11: evolution rewrote the served runtime's live strategy because
 * injections failed (422: the fault could not be applied). Live patching is
 * opt-in and learns only from applied faults the runtime did not recover from.
 */
import { describe, expect, it } from 'vitest';
import { call, serveRootForTest, stateOf } from './served-root.js';

describe('live evolution of a served runtime', () => {
  it('is off by default: faults that cannot be applied leave the strategy alone, and /arena/evolution says it is off', async () => {
    const { url, root } = await serveRootForTest();
    const strategy = JSON.parse(await stateOf(root)).strategy;
    for (let i = 0; i < 5; i++) {
      // a resume of a running agent runs and cannot be applied; unknown names are refused before that
      expect((await call(url, 'POST', '/arena/agent/agent-1/resume')).status).toBe(422);
      expect((await call(url, 'POST', '/arena/agent/agent-9/kill')).status).toBe(400);
      expect((await call(url, 'POST', '/arena/node/nope/remove')).status).toBe(400);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(await stateOf(root)).strategy).toEqual(strategy);
    expect((await call(url, 'GET', '/api/v1/runtime-evolution/status')).json.runtime.applied).toBe(0);
    const status = await call(url, 'GET', '/api/v1/arena/evolution');
    expect(status.json).toMatchObject({ enabled: false });
  });

  it('with evolve on, 422s still change nothing; the status says what it learns from', async () => {
    const { url, root } = await serveRootForTest({ evolve: true });
    const strategy = JSON.parse(await stateOf(root)).strategy;
    for (let i = 0; i < 5; i++) expect((await call(url, 'POST', '/arena/agent/agent-1/resume')).status).toBe(422);
    await new Promise((r) => setTimeout(r, 100));
    expect(JSON.parse(await stateOf(root)).strategy).toEqual(strategy);
    const status = (await call(url, 'GET', '/arena/evolution')).json;
    expect(status).toMatchObject({ enabled: true, watched: 0, unrecovered: 0 });
    expect(status.learns_from).toContain('did not recover');
  });
});
