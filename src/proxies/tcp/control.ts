/**
 * The TCP proxy with its fault registry and, optionally, its control port:
 * the Arena Target Protocol's fault routes (`POST/GET /v1/faults`,
 * `DELETE /v1/faults/{id}`, `POST /v1/leases`, `POST /v1/reset`) plus
 * `GET /v1/stats`. Faults end with their duration or lease, on DELETE, and
 * on close.
 */
import { createFaultRegistry, type FaultRegistry, type RevertReason } from '../../protocol/fault-registry.js';
import { faultRoutes, listenProtocol, protocolHandler, type ProtocolServer } from '../../protocol/http.js';
import { sendJson } from '../../shared/http/respond.js';
import { proxyMetricsRoute } from '../../protocol/metrics.js';
import type { WireActiveFault } from '../../protocol/wire.js';
import { listenFailure } from './endpoint.js';
import { startTcpProxy, type TcpProxy, type TcpProxyOptions } from './proxy.js';

export interface TcpFaultProxyOptions extends TcpProxyOptions {
  /** control port on loopback (or `host`); omitted = no control port */
  control?: { host?: string; port: number };
  /** when set, the control port needs `Authorization: Bearer <token>` */
  token?: string;
  onRevert?: (fault: WireActiveFault, reason: RevertReason, error?: unknown) => void;
}

export interface TcpFaultProxy {
  proxy: TcpProxy;
  registry: FaultRegistry;
  control?: ProtocolServer;
  /** reverts every fault, then closes the control port and the proxy */
  close(): Promise<void>;
}

export async function startTcpFaultProxy(options: TcpFaultProxyOptions): Promise<TcpFaultProxy> {
  const proxy = await startTcpProxy(options);
  const registry = createFaultRegistry({
    apply: async (request) => proxy.applyFault(request),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onRevert ? { onRevert: options.onRevert } : {}),
  });
  let control: ProtocolServer | undefined;
  if (options.control) {
    const controlHost = options.control.host ?? '127.0.0.1';
    const routes = [
      ...faultRoutes(registry),
      {
        method: 'GET' as const,
        path: '/v1/stats',
        handle: async (_req: unknown, res: Parameters<typeof sendJson>[0]) => sendJson(res, 200, proxy.stats()),
      },
      proxyMetricsRoute(
        'tcp',
        () => registry.list(),
        () => {
          // connections by what ended them: reset, timed out, or nothing the proxy did
          const s = proxy.stats();
          const faulted = s.connections_reset + s.connections_timed_out;
          return {
            none: Math.max(0, s.connections_total - faulted),
            reset: s.connections_reset,
            timeout: s.connections_timed_out,
          };
        },
      ),
    ];
    try {
      control = await listenProtocol(
        protocolHandler({ routes, ...(options.token ? { token: options.token } : {}) }),
        options.control.port,
        controlHost,
      );
    } catch (err) {
      await proxy.close();
      throw listenFailure(err, 'control', controlHost, options.control.port);
    }
  }
  return {
    proxy,
    registry,
    ...(control ? { control } : {}),
    async close() {
      await registry.revertAll();
      await control?.close();
      await proxy.close();
    },
  };
}
