/**
 * A remote target that answers slowly or hugely (issue 39): `describe` with `timeout: 2s` against a
 * server that trickles a byte a second ends at the deadline with a clean error, an endless answer is
 * abandoned at the cap instead of filling memory, and SIGTERM ends a command waiting on a long
 * timeout. The servers stream; nothing large is allocated here.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { waitFor } from '../helpers/process-fleet.js';

let dir = '';
const servers: Server[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-remote-outbound-'));
});
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler!(req, res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits: () => hits };
}

function targetFile(url: string, timeout: string) {
  const file = join(dir, 'remote.yaml');
  writeFileSync(file, `kind: remote\nname: slow\nurl: "${url}"\ntimeout: ${timeout}\n`);
  return file;
}

const trickle: Parameters<typeof createServer>[1] = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
};

describe('calls to a remote target have a whole-call deadline, a size cap and an interrupt', {
  timeout: 90_000,
}, () => {
  it('a trickled answer: describe ends at its 2 s timeout with a clean error, exit 3', async () => {
    const { url } = await serve(trickle);
    const started = Date.now();
    const result = await arena(['describe', '--target', targetFile(url, '2s')]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`target ${url} is unreachable (GET /v1/target)`);
    expect(result.stderr).toContain('no complete answer within 2000ms');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('an endless answer is abandoned at the cap: exit 3, no crash', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let open = true;
      res.on('close', () => {
        open = false;
      });
      const pump = () => {
        while (open && res.write(chunk));
        if (open) res.once('drain', pump);
      };
      pump();
    });
    const result = await arena(['describe', '--target', targetFile(url, '60s')]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`target ${url} answered GET /v1/target with more than 8388608 bytes`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('SIGTERM ends a describe waiting on a long timeout: exit 130', async () => {
    const server = await serve(trickle);
    const child = arena(['describe', '--target', targetFile(server.url, '10m')]);
    await waitFor(() => server.hits() > 0, 30_000, 'the request reached the server');
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain('interrupted while waiting for target');
  });
});
