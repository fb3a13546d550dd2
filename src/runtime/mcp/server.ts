/**
 * The in-process MCP server every embedded agent talks to: an official-SDK
 * McpServer with a few real tools, reached over the SDK's in-memory transport
 * (the real protocol: initialize handshake, JSON-RPC requests, schema checks).
 * The SDK is imported when a server is first created, not when this module
 * loads, so `import 'chaos-arena'` does not pay for it.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { evaluateExpression } from '../tools/expression.js';

export interface InProcessMcpServerOptions {
  name?: string;
  version?: string;
}

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/**
 * The tools' input schemas, built once per process: a server is created for every agent (and again on
 * each restart), and building them anew each time was most of what creating one cost.
 */
let inputSchemas: ReturnType<typeof buildInputSchemas> | undefined;
function buildInputSchemas() {
  return {
    calculate: z.object({ expression: z.string() }),
    echo: z.object({ message: z.string() }),
    note_put: z.object({ key: z.string().min(1), value: z.string() }),
    note_get: z.object({ key: z.string().min(1) }),
    word_count: z.object({ text: z.string() }),
  };
}

export async function createInProcessMcpServer(options: InProcessMcpServerOptions = {}): Promise<McpServer> {
  const [{ McpServer }, { lazySchemaValidator }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/mcp.js'),
    import('./schema-validator.js'),
  ]);
  const server = new McpServer(
    { name: options.name ?? 'chaos-arena-in-process', version: options.version ?? '1.0.0' },
    { jsonSchemaValidator: lazySchemaValidator() },
  );
  const input = (inputSchemas ??= buildInputSchemas());
  // per-server notes: state that survives reconnects, so a reconnected session sees earlier writes
  const notes = new Map<string, string>();

  server.registerTool(
    'calculate',
    { description: 'Evaluates an arithmetic expression such as "2 * (3 + 4)"', inputSchema: input.calculate },
    async ({ expression }) => {
      try {
        const value = evaluateExpression(expression);
        return { ...text(String(value)), structuredContent: { value } };
      } catch (error) {
        return { ...text((error as Error).message), isError: true };
      }
    },
  );
  server.registerTool(
    'echo',
    { description: 'Returns its message unchanged', inputSchema: input.echo },
    async ({ message }) => text(message),
  );
  server.registerTool(
    'note_put',
    { description: 'Stores a note under a key on the server', inputSchema: input.note_put },
    async ({ key, value }) => {
      notes.set(key, value);
      return text(`stored ${key}`);
    },
  );
  server.registerTool(
    'note_get',
    { description: 'Reads a note stored with note_put', inputSchema: input.note_get },
    async ({ key }) => (notes.has(key) ? text(notes.get(key)!) : { ...text(`no note "${key}"`), isError: true }),
  );
  server.registerTool(
    'word_count',
    { description: 'Counts the words in a text', inputSchema: input.word_count },
    async (args) => {
      const count = args.text.trim() === '' ? 0 : args.text.trim().split(/\s+/).length;
      return { ...text(String(count)), structuredContent: { count } };
    },
  );
  return server;
}

/**
 * A connector for createMcpSession that links a fresh in-memory transport
 * pair to `server` on every (re)connect. The server is reused, so its state
 * persists across reconnects. Without one, a server is created on the first
 * connect (not before: that would load the SDK for agents that never connect).
 */
export function inProcessConnector(given?: McpServer | Promise<McpServer>): () => Promise<Transport> {
  let pending: Promise<McpServer> | undefined;
  return async () => {
    pending ??= Promise.resolve(given ?? createInProcessMcpServer());
    const [server, { InMemoryTransport }] = await Promise.all([
      pending,
      import('@modelcontextprotocol/sdk/inMemory.js'),
    ]);
    // a server serves one transport at a time; drop a stale one left by an abrupt disconnect
    if (server.isConnected()) await server.close();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    return clientSide;
  };
}
