/**
 * The one door to the MCP SDK (`@modelcontextprotocol/sdk`) for the runtime and the proxies. The
 * SDK's modules and what they import (its own zod, v3 and v4, zod-to-json-schema, ajv) are some 300
 * files, and loading them cost every process that runs the embedded runtime ~100 ms of CPU
 * (`arena scenario run`, `regress`, `target serve`...). The build (scripts/bundle-vendor.mjs)
 * bundles this module into one file, dist/vendor/mcp-sdk.cjs, loaded through the CLI's compile
 * cache; tests and type checks see the SDK itself.
 *
 * Import this module dynamically, never statically: it is the SDK, and `import 'chaos-arena'` or a
 * command that does not speak MCP must not pay for it (test/unit/proxies/mcp/lazy-sdk.test.ts).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * The SDK's own JSON Schema validator (Ajv), built when a schema is first checked rather than with
 * the client or server. The SDK builds one in every Client and Server constructor, about 1 ms of
 * blocking work each, and the embedded runtime opens a client and a server on every agent restart
 * and MCP reconnect; its in-process tools declare no output schema, so it never needs one. One per
 * client or server, as the SDK has it: Ajv keeps every schema it compiled.
 */
export function lazySchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

/**
 * The transports to an MCP server in another process or behind a URL, which the embedded runtime
 * never needs: in the bundle, their modules are evaluated on the first call, not when it loads.
 */
export async function mcpTransports() {
  const [stdioClient, stdioServer, httpClient, httpServer] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return {
    getDefaultEnvironment: stdioClient.getDefaultEnvironment,
    StdioClientTransport: stdioClient.StdioClientTransport,
    StdioServerTransport: stdioServer.StdioServerTransport,
    StreamableHTTPClientTransport: httpClient.StreamableHTTPClientTransport,
    StreamableHTTPServerTransport: httpServer.StreamableHTTPServerTransport,
  };
}
