/**
 * Teardown order: the fleet gets SIGTERM while its proxies still listen, so an agent that calls out
 * on the way down (an SDK closing its MCP session, a last LLM call) reaches its server. The proxies
 * used to close first, and every agent logged "Failed to terminate MCP session" on every stop.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessTarget } from '../../src/targets/process/index.js';
import { processTargetSchema } from '../../src/targets/process/spec.js';
import { FLEET_DIR, freePorts } from '../helpers/process-fleet.js';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('process target teardown', { timeout: 60_000 }, () => {
  it('stops the fleet before its proxies: an agent calling out on SIGTERM still gets through', async () => {
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }));
    });
    servers.push(upstream);
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    const [agentPort, llmPort] = await freePorts(2);
    const dir = mkdtempSync(join(tmpdir(), 'arena-teardown-'));
    dirs.push(dir);
    const out = join(dir, 'goodbye');
    const target = createProcessTarget(
      processTargetSchema.parse({
        kind: 'process',
        name: 'teardown',
        start: {
          command: `exec node goodbye-agent.mjs ${agentPort} ${llmPort} ${out}`,
          ready: { http: `http://127.0.0.1:${agentPort}/`, timeout: '20s' },
          grace: '5s',
        },
        llm: {
          listen: llmPort,
          upstream: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`,
          api: 'openai',
        },
        agents: [
          {
            id: 'goodbye',
            pid: { port: agentPort },
            health: { http: `http://127.0.0.1:${agentPort}/`, interval: '50ms' },
          },
        ],
      }),
      { baseDir: FLEET_DIR },
    );
    await target.start();
    await target.stop();
    expect(readFileSync(out, 'utf8')).toBe('status 200');
  });
});
