/**
 * A remote target reads its target document once for readers that ask at the same time (survival
 * asks for agents, DAG nodes and edges on every tick), and afresh for a reader that asks later.
 * Against a real HTTP server on loopback that counts the GETs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRemoteTarget } from '../../../src/targets/remote/target.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** a protocol target whose GET /v1/target answers with agents named after the request's number; `failing` answers 500 */
async function countingTarget(): Promise<{ url: string; gets: () => number; failing: (on: boolean) => void }> {
  let gets = 0;
  let fail = false;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/target') {
      gets += 1;
      if (fail) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: 'down for a moment', code: 'down' }));
        return;
      }
      const doc = {
        protocol: 1,
        name: 'counted',
        agents: [{ id: `agent-${gets}`, status: 'running', restarts: 0 }],
        dag: { nodes: ['a', 'b'], edges: [{ from: 'a', to: 'b' }] },
        faults: ['kill_agent'],
        workload: false,
        invariants: false,
      };
      // answered a little later, so the readers of one tick are all waiting on the same request
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc)), 20);
      return;
    }
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: 'no such route', code: 'not_found' }));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, gets: () => gets, failing: (on) => (fail = on) };
}

describe('remote target: reads of the target document', () => {
  it('readers at the same time share one GET; a later reader gets a fresh document', async () => {
    const served = await countingTarget();
    const target = createRemoteTarget({ kind: 'remote', name: 'counted', url: served.url });
    const [agents, nodes, edges] = await Promise.all([
      target.runtime.listAgents(),
      target.dag!.listNodes(),
      target.dag!.listEdges(),
    ]);
    expect(served.gets()).toBe(1);
    expect(agents.map((a) => a.id)).toEqual(['agent-1']);
    expect(nodes).toEqual(['a', 'b']);
    expect(edges).toEqual([{ from: 'a', to: 'b' }]);
    // shared between readers, so nobody can change it under another
    expect(Object.isFrozen(agents)).toBe(true);
    expect(Object.isFrozen(agents[0])).toBe(true);

    const later = await target.runtime.listAgents();
    expect(served.gets()).toBe(2);
    expect(later.map((a) => a.id)).toEqual(['agent-2']);
  });

  it('a failed read fails every reader waiting on it, and the next read asks again', async () => {
    const served = await countingTarget();
    const target = createRemoteTarget({ kind: 'remote', name: 'counted', url: served.url });
    served.failing(true);
    const reads = await Promise.allSettled([target.runtime.listAgents(), target.dag!.listNodes()]);
    expect(reads.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((reads[0] as PromiseRejectedResult).reason)).toContain('down for a moment');
    expect(served.gets()).toBe(1);
    served.failing(false);
    expect((await target.runtime.listAgents()).map((a) => a.id)).toEqual(['agent-2']);
    expect(served.gets()).toBe(2);
  });
});
