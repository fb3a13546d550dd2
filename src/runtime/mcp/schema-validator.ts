/**
 * The MCP SDK's own JSON Schema validator (Ajv), built when a schema is first checked rather than with
 * the client or server. The SDK builds one in every Client and Server constructor, and the embedded
 * runtime opens a client and a server on every agent restart and MCP reconnect; its in-process tools
 * declare no output schema, so it never needs one. One per client or server, as the SDK has it: Ajv
 * keeps every schema it compiled.
 *
 * This module imports the SDK: import it dynamically, next to the SDK's client or server, never
 * statically (test/unit/proxies/mcp/lazy-sdk.test.ts).
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export function lazySchemaValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}
