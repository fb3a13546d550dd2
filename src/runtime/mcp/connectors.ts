/**
 * Connectors for MCP servers the user configures: a command spawned over
 * stdio, or a streamable-HTTP endpoint. Each returns a fresh transport per
 * (re)connect, which is what createMcpSession needs to reconnect. The SDK's
 * transports are imported at connect time, not when the package loads.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { UsageError } from '../../shared/errors.js';

export type McpConnector = () => Promise<Transport>;

export interface StdioServerConfig {
  transport: 'stdio';
  name?: string;
  command: string;
  args?: string[];
  /** added to the SDK's safe default environment (PATH, HOME...) */
  env?: Record<string, string>;
  cwd?: string;
}

export interface HttpServerConfig {
  transport: 'http';
  name?: string;
  /** the server's streamable-HTTP endpoint, e.g. http://127.0.0.1:3000/mcp */
  url: string;
  headers?: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export function stdioConnector(config: Omit<StdioServerConfig, 'transport'>): McpConnector {
  if (typeof config.command !== 'string' || config.command === '')
    throw new UsageError('MCP stdio server needs a "command"', { code: 'invalid_mcp_config' });
  return async () => {
    const { getDefaultEnvironment, StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    return new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...config.env },
      cwd: config.cwd,
      // keep the server's logs off our terminal; they stay readable on transport.stderr
      stderr: 'pipe',
    });
  };
}

export function streamableHttpConnector(config: Omit<HttpServerConfig, 'transport'>): McpConnector {
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    throw new UsageError(`MCP http server url ${JSON.stringify(config.url)} is not a valid URL`, {
      code: 'invalid_mcp_config',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`MCP http server url must be http(s), got ${url.protocol}`, { code: 'invalid_mcp_config' });
  return async () => {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers ?? {} } });
  };
}

/** validates a user's server entry (e.g. from a YAML config) and returns its connector */
export function connectorFor(config: unknown, where = 'mcp server'): McpConnector {
  if (typeof config !== 'object' || config === null)
    throw new UsageError(`${where}: must be an object with "transport": stdio | http`, { code: 'invalid_mcp_config' });
  const entry = config as Record<string, unknown>;
  if (entry.transport === 'stdio') {
    if (typeof entry.command !== 'string' || entry.command === '')
      throw new UsageError(`${where}.command: required for a stdio server`, { code: 'invalid_mcp_config' });
    if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((a) => typeof a === 'string'))) {
      throw new UsageError(`${where}.args: must be a list of strings`, { code: 'invalid_mcp_config' });
    }
    return stdioConnector(entry as unknown as StdioServerConfig);
  }
  if (entry.transport === 'http') {
    if (typeof entry.url !== 'string')
      throw new UsageError(`${where}.url: required for an http server`, { code: 'invalid_mcp_config' });
    return streamableHttpConnector(entry as unknown as HttpServerConfig);
  }
  throw new UsageError(`${where}.transport: must be "stdio" or "http", got ${JSON.stringify(entry.transport)}`, {
    code: 'invalid_mcp_config',
  });
}
