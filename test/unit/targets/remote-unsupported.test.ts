/**
 * What a remote target says it cannot do, decided from its GET /v1/target before anything is injected.
 * Against a real HTTP server on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRemoteTarget } from '../../../src/targets/remote/target.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serving(agents: Array<Record<string, unknown>>): Promise<string> {
  const doc = {
    protocol: 1,
    name: 'fleet',
    agents,
    faults: ['kill_agent', 'pause_agent'],
    dag: null,
    workload: false,
    invariants: false,
  };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/target')
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no","code":"not_found"}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('remote target: unsupported faults', () => {
  it('without an orchestrator among its agents, kill_orchestrator is unsupported, with the reason', async () => {
    const url = await serving([
      { id: 'agent-1', role: 'leader', status: 'running', restarts: 0 },
      { id: 'agent-2', role: 'worker', status: 'running', restarts: 0 },
    ]);
    const target = createRemoteTarget({ kind: 'remote', name: 'fleet', url });
    await target.start();
    try {
      const out = target.unsupportedFaults();
      expect(out.kill_orchestrator).toBe(
        'target fleet has no agent with role orchestrator (its GET /v1/target lists none)',
      );
      expect(out.kill_leader).toBeUndefined();
    } finally {
      await target.stop();
    }
  });

  it('with an orchestrator (or standby) agent, kill_orchestrator is offered', async () => {
    const url = await serving([
      { id: 'agent-1', role: 'worker', status: 'running', restarts: 0 },
      { id: 'orch-1', role: 'orchestrator', status: 'running', restarts: 0 },
    ]);
    const target = createRemoteTarget({ kind: 'remote', name: 'fleet', url });
    await target.start();
    try {
      expect(target.unsupportedFaults().kill_orchestrator).toBeUndefined();
    } finally {
      await target.stop();
    }
  });
});
