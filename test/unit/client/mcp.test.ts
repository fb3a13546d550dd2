import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Client as ClientType } from '../../../src/index.js';
import { pkg } from './pkg.js';

const { Client, NotConfiguredError, NotFoundError, UsageError } = pkg;
const fixture = fileURLToPath(new URL('../../fixtures/mcp-server.mjs', import.meta.url));

let client: ClientType | undefined;
afterEach(async () => {
  await client?.close().catch(() => undefined);
  client = undefined;
});

describe('Client MCP sessions', () => {
  it('connects to a configured stdio server process on first use, probes it and closes it', async () => {
    client = new Client({
      mcp: {
        servers: {
          calc: { transport: 'stdio', command: process.execPath, args: [fixture], env: { FIXTURE_PREFIX: 'sum=' } },
        },
        reconnect: { backoff_ms: '20ms' },
      },
    });
    const session = await client.mcp();
    expect(await client.mcp('calc')).toBe(session);
    expect((await session.callTool('add', { a: 40, b: 2 })).text).toBe('sum=42');
    const health = await client.health();
    expect(health.services['mcp:calc']).toMatchObject({ status: 'ok' });
    expect(health.healthy).toBe(true);
    await expect(client.mcp('other')).rejects.toBeInstanceOf(NotFoundError);
    await client.close();
    expect(session.isConnected()).toBe(false);
  });

  it('reports an unreachable server in health and retries the connect on the next call', async () => {
    client = new Client({
      mcp: {
        servers: { gone: { transport: 'stdio', command: '/nonexistent/mcp-binary' } },
        reconnect: { enabled: false },
      },
    });
    const health = await client.health();
    expect(health.healthy).toBe(false);
    expect(health.services['mcp:gone'].status).toBe('error');
    await expect(client.mcp('gone')).rejects.toThrow();
  });

  it('validates the mcp section and says when it is missing', async () => {
    expect(() => new Client({ mcp: { servers: { a: { transport: 'ftp' } } } } as never)).toThrow(UsageError);
    expect(() => new Client({ mcp: { servers: { a: { transport: 'stdio' } } } } as never)).toThrow(
      /mcp\.servers\.a\.command/,
    );
    client = new Client({});
    await expect(client.mcp()).rejects.toBeInstanceOf(NotConfiguredError);
  });
});
