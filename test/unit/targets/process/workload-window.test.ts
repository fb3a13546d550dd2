/**
 * A process target's workload counts every request it sent in a window: one that hangs through an
 * outage ends by its own timeout and is a failure, not a request never seen (DESIGN §5).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkload } from '../../../../src/targets/process/workload.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('process workload windows', () => {
  it('requests that hang past the window end are waited for and counted failed at their timeout', async () => {
    let isDown = false;
    server = createServer((_req, res) => {
      if (isDown) return; // an outage: the answer never comes
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const workload = createWorkload({
      rate: 40,
      request: { method: 'GET', url: `http://127.0.0.1:${port}/task`, timeout: 300 },
      expect: { json: { path: '$.ok', equals: true } },
    } as Parameters<typeof createWorkload>[0]);
    const window = workload.openWindow();
    workload.start();
    try {
      await new Promise((r) => setTimeout(r, 150));
      isDown = true;
      await new Promise((r) => setTimeout(r, 150));
      const atEnd = window.counts();
      expect(atEnd.pending).toBeGreaterThan(0);
      const closed = await window.close();
      expect(closed.pending).toBe(0);
      expect(closed.sent).toBe(closed.succeeded + closed.failed);
      // the requests sent during the outage failed at their timeout; none was left out
      expect(closed.sent).toBeGreaterThanOrEqual(atEnd.sent);
      expect(closed.failed).toBeGreaterThan(0);
      expect(closed.succeeded).toBeGreaterThan(0);
    } finally {
      await workload.stop();
    }
  });
});
