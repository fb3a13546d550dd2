/**
 * The MCP proxy's control port (DESIGN §10): the Arena Target Protocol's
 * fault routes over the proxy's registry, plus `GET /v1/stats` and
 * `GET /v1/calls` (one record per tools/call). Loopback
 * by default; it never shares a port with the MCP channel.
 */
import { faultRoutes, listenProtocol, protocolHandler, type ProtocolServer } from '../../protocol/http.js';
import { sendJSON } from '../../shared/http/respond.js';
import { proxyMetricsRoute } from '../../protocol/metrics.js';
import type { McpProxy } from './types.js';
import { callsRoute } from '../calls-route.js';

export interface McpControlOptions {
  port: number;
  host?: string;
  /** when set, every control request needs `Authorization: Bearer <token>` */
  token?: string;
}

export async function startMcpControl(proxy: McpProxy, options: McpControlOptions): Promise<ProtocolServer> {
  const handler = protocolHandler({
    ...(options.token === undefined ? {} : { token: options.token }),
    routes: [
      ...faultRoutes(proxy.faults),
      {
        method: 'GET',
        path: '/v1/stats',
        handle: async (_req, res) =>
          sendJSON(res, 200, { ...proxy.stats(), active_faults: proxy.faults.list().length }),
      },
      callsRoute(proxy.calls),
      proxyMetricsRoute(
        'mcp',
        () => proxy.faults.list(),
        () => {
          // tool calls by what the proxy did to them
          const s = proxy.stats();
          const faulted = s.calls_held.total + s.calls_delayed + s.errors_injected;
          return {
            none: Math.max(0, s.tool_calls - faulted),
            hold: s.calls_held.total,
            delay: s.calls_delayed,
            error: s.errors_injected,
          };
        },
      ),
    ],
  });
  // a port in use is a usage error naming it (listenProtocol)
  return listenProtocol(handler, options.port, options.host ?? '127.0.0.1', 'control port');
}
