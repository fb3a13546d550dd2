import { describe, expect, it } from 'vitest';
import { Router } from '../../../../src/server/router.js';
import { registerRuntimeRoutes, type RuntimeService } from '../../../../src/server/groups/runtime.js';
import { raw, serve } from '../helpers.js';

function fakeRuntime() {
  const calls: string[] = [];
  const service: RuntimeService = {
    start: () => (calls.push('start'), { running: true }),
    stop: () => (calls.push('stop'), { running: false }),
    stats: () => ({}),
    agent: () => ({}),
    strategy: () => ({}),
    updateStrategy: () => ({}),
  };
  return { service, calls };
}

describe('runtime routes', () => {
  it('start and stop with no body (or {}) act; a garbage or unexpected body is a 400 and changes nothing', async () => {
    const { service, calls } = fakeRuntime();
    const router = new Router({ log: () => {} });
    registerRuntimeRoutes(router, service);
    const s = await serve(router);
    for (const verb of ['stop', 'start']) {
      const garbage = await raw(s.url, 'POST', `/api/v1/runtime/${verb}`, { body: 'not json' });
      expect(garbage.status, verb).toBe(400);
      expect(garbage.json().code).toBe('invalid_json');
      const extra = await raw(s.url, 'POST', `/api/v1/runtime/${verb}`, { body: '{"force":true}' });
      expect(extra.status, verb).toBe(400);
      expect(extra.json().error).toContain('body.force');
    }
    expect(calls).toEqual([]);
    expect((await raw(s.url, 'POST', '/api/v1/runtime/stop')).status).toBe(200);
    expect((await raw(s.url, 'POST', '/api/v1/runtime/start', { body: '{}' })).status).toBe(200);
    expect(calls).toEqual(['stop', 'start']);
  });
});
