/**
 * The LLM proxy's control port (DESIGN §10): the Arena Target Protocol's
 * fault routes over a lease-keeping registry, plus `GET /v1/stats` and
 * `GET /v1/calls` (what it recorded of each call). A fault
 * whose lease is not renewed is reverted by the registry (dead-man's switch).
 */
import { createFaultRegistry, type FaultRegistry, type RevertReason } from '../../protocol/fault-registry.js';
import { faultRoutes, listenProtocol, protocolHandler, type ProtocolServer } from '../../protocol/http.js';
import { sendJson } from '../../shared/http/respond.js';
import { proxyMetricsRoute } from '../../protocol/metrics.js';
import type { WireActiveFault } from '../../protocol/wire.js';
import type { Clock } from '../../shared/clock.js';
import type { LlmProxy } from './proxy.js';
import { callsRoute } from '../calls-route.js';

export interface LlmControlOptions {
  proxy: LlmProxy;
  /** port of the control port; 0 picks a free one */
  listen?: number;
  host?: string;
  /** when set, every control route needs `Authorization: Bearer <token>` */
  token?: string;
  clock?: Clock;
  onRevert?: (fault: WireActiveFault, reason: RevertReason, error?: unknown) => void;
}

export interface LlmControl {
  registry: FaultRegistry;
  /** undefined when no control port was asked for */
  server?: ProtocolServer;
  /** reverts every fault, then closes the control port */
  close(): Promise<void>;
}

export async function startLlmControl(options: LlmControlOptions): Promise<LlmControl> {
  const registry = createFaultRegistry({
    apply: (request) => options.proxy.applyFault(request),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onRevert ? { onRevert: options.onRevert } : {}),
  });
  let server: ProtocolServer | undefined;
  if (options.listen !== undefined) {
    const host = options.host ?? '127.0.0.1';
    const handler = protocolHandler({
      ...(options.token ? { token: options.token } : {}),
      routes: [
        ...faultRoutes(registry),
        { method: 'GET', path: '/v1/stats', handle: async (_req, res) => sendJson(res, 200, options.proxy.stats()) },
        callsRoute(options.proxy.calls),
        proxyMetricsRoute(
          'llm',
          () => registry.list(),
          () => llmRequestsByFault(options.proxy.stats()),
          options.proxy.calls,
        ),
      ],
    });
    // a port in use is a usage error naming it (listenProtocol)
    server = await listenProtocol(handler, options.listen, host, 'control port');
  }
  return {
    registry,
    ...(server ? { server } : {}),
    async close() {
      await registry.revertAll();
      await server?.close();
    },
  };
}

/** the proxy's requests by what happened to them: passed through, each injected error, upstream unreachable */
function llmRequestsByFault(stats: ReturnType<LlmProxy['stats']>): Record<string, number> {
  return { none: stats.passed, ...stats.errors_injected, upstream_failure: stats.upstream_failures };
}
