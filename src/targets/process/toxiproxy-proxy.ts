/**
 * An agent's proxy that an `arena toxiproxy` server runs (`proxy: { toxiproxy, name }`): the proxy a
 * Toxiproxy client made, and the arena's faults on it go through the server's per-proxy fault routes
 * (`/arena/proxies/{name}/v1/…`), beside the client's toxics. Unlike the proxies the arena starts, this
 * one lives in another process and outlives the arena, so each fault is leased and renewed, and the
 * watchdog is told its DELETE before it is applied: a SIGKILLed arena leaves nothing behind.
 */
import { DEFAULT_LEASE_MS, type FaultRequest } from '../../protocol/wire.js';
import type { Clock, TimerHandle } from '../../shared/clock.js';
import { NotFoundError, RuntimeError } from '../../shared/errors.js';
import { createProtocolClient, TargetAnswerError } from '../remote/client.js';
import type { AgentProxy } from './faults.js';
import type { Watchdog } from './watchdog.js';

export interface ToxiproxyProxyOptions {
  agentId: string;
  /** the server's base URL and the proxy's name, as the target file gives them */
  url: string;
  name: string;
  /** the server's --api-key, sent as a bearer token (the watchdog's DELETE carries it too) */
  apiKey?: string;
  clock: Clock;
  watchdog: () => Watchdog | undefined;
  /** default DEFAULT_LEASE_MS: how long a fault outlives an arena that stopped renewing it */
  leaseMs?: number;
}

/** what proxies.ts's RunningProxy asks of a proxy (declared here: proxies.ts imports this module) */
export interface ToxiproxyAgentProxy extends AgentProxy {
  readonly port: number;
  readonly listen: string;
  readonly upstream: string;
  stats(): Record<string, unknown>;
  close(): Promise<void>;
}

const isGone = (err: unknown) => err instanceof TargetAnswerError && err.targetStatus === 404;

/** Finds the named proxy (a NotFoundError, exit 2, when the server has none of that name) and returns its handle. */
export async function connectToxiproxyProxy(options: ToxiproxyProxyOptions): Promise<ToxiproxyAgentProxy> {
  const { agentId, name, clock } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const client = createProtocolClient({ url: options.url, ...(options.apiKey ? { token: options.apiKey } : {}) });
  const headers = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : undefined;
  const base = `/arena/proxies/${encodeURIComponent(name)}`;
  const where = `agents.${agentId}.proxy`;
  let found: { listen: string; upstream: string };
  try {
    found = (await client.call<{ listen: string; upstream: string }>('GET', `/proxies/${encodeURIComponent(name)}`))
      .json;
  } catch (err) {
    client.close();
    if (isGone(err))
      throw new NotFoundError(`${where}: toxiproxy server ${client.url} has no proxy named "${name}"`, {
        code: 'proxy_not_found',
        hint: `create it first (POST ${client.url}/proxies, or --config), or fix the name`,
      });
    // the protocol client says "target"; here it is the Toxiproxy server the agent's proxy is on
    const why = (err as Error).message.replace(/^target /, 'toxiproxy server ');
    throw new RuntimeError(`${where}: ${why}`, { code: 'toxiproxy_unreachable', cause: err });
  }

  const active = new Set<string>();
  let renewTimer: TimerHandle | undefined;
  let isClosed = false;
  /** every third of the lease while a fault is active; an unreachable server is tried again next round */
  const scheduleRenew = () => {
    if (renewTimer || isClosed || active.size === 0) return;
    renewTimer = clock.setTimer(Math.max(50, Math.floor(leaseMs / 3)), () => {
      renewTimer = undefined;
      void (async () => {
        try {
          const renewed = new Set(await client.renew([...active], leaseMs));
          // ended on the server (its duration, a deleted proxy): nothing left to renew
          for (const id of [...active]) if (!renewed.has(id)) active.delete(id);
        } catch {}
        scheduleRenew();
      })();
    });
  };

  return {
    port: Number(found.listen.slice(found.listen.lastIndexOf(':') + 1)),
    listen: found.listen,
    upstream: found.upstream,
    stats: () => ({ toxiproxy: client.url, name, faults_active: active.size }),
    async applyFault(request: FaultRequest) {
      const watchdog = options.watchdog();
      if (!watchdog)
        throw new RuntimeError(
          `${request.type}: agent ${agentId}'s proxy is on toxiproxy ${client.url}: no watchdog to guarantee the revert`,
          { code: 'not_started' },
        );
      const key = `toxiproxy:${client.url}:${name}:${request.id}`;
      const deleteUrl = `${client.url}${base}/v1/faults/${encodeURIComponent(request.id)}`;
      // told first: an arena killed between the POST and its answer still has the fault deleted
      await watchdog.tell({ op: 'revert', key, url: deleteUrl, method: 'DELETE', ...(headers ? { headers } : {}) });
      let accepted: { report?: Record<string, unknown> };
      try {
        accepted = (
          await client.call<{ report?: Record<string, unknown> }>('POST', `${base}/v1/faults`, {
            ...request,
            lease_ms: leaseMs,
          })
        ).json;
      } catch (err) {
        await watchdog.tell({ op: 'reverted', key });
        if (isGone(err))
          throw new RuntimeError(`agent ${agentId}'s proxy "${name}" is no longer on toxiproxy ${client.url}`, {
            code: 'proxy_not_found',
          });
        throw new RuntimeError(
          `agent ${agentId}'s proxy "${name}" on toxiproxy ${client.url} refused the fault: ${(err as Error).message}`,
          { code: (err as { code?: string }).code ?? 'fault_refused' },
        );
      }
      active.add(request.id);
      scheduleRenew();
      return {
        report: { ...accepted.report, toxiproxy: client.url, proxy_name: name },
        revert: async () => {
          active.delete(request.id);
          try {
            await client.deleteFault(request.id);
          } catch (err) {
            // a proxy deleted meanwhile took the fault with it
            if (!isGone(err)) throw err;
          }
          await options.watchdog()?.tell({ op: 'reverted', key });
        },
      };
    },
    async close() {
      isClosed = true;
      renewTimer?.cancel();
      client.close();
    },
  };
}
