/**
 * Toxiproxy's proxies and their toxics over the arena's TCP proxy: one
 * TcpProxy per enabled proxy, closed when the proxy is disabled (its
 * connections go with it) and started again, with its toxics, when it is
 * enabled. Every change runs one at a time, as Toxiproxy's locks make them.
 * Returns Toxiproxy's JSON shapes; throws ToxiproxyApiError.
 */
import { createFaultRegistry, type AppliedFault, type FaultRegistry } from '../../protocol/fault-registry.js';
import type { FaultRequest } from '../../protocol/wire.js';
import type { Clock } from '../../shared/clock.js';
import { UsageError } from '../../shared/errors.js';
import { createRandom, deriveSeed } from '../../shared/random.js';
import { parseHostPort } from '../tcp/endpoint.js';
import { describeParams, parseTcpFault } from '../tcp/fault-spec.js';
import { startTcpProxy, type TcpProxy, type TcpProxyStats } from '../tcp/proxy.js';
import { attributesJson, type ToxicSpec } from '../tcp/toxic-spec.js';
import { formatAddress, parseListen } from './address.js';
import { parseToxicCreate, parseToxicUpdate, requireNameAndUpstream, type ProxyInput } from './bodies.js';
import { badBody, proxyExists, proxyNotFound, toxicNotFound, ToxiproxyApiError } from './errors.js';

export interface ToxicJson {
  attributes: Record<string, number>;
  name: string;
  type: string;
  stream: string;
  toxicity: number;
}

export interface ProxyJson {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean;
  toxics: ToxicJson[];
}

export interface ProxyCounters {
  name: string;
  listen: string;
  upstream: string;
  enabled: boolean;
  toxics: number;
  connections: number;
  received: { upstream: number; downstream: number };
}

interface ProxyState {
  name: string;
  /** as Toxiproxy shows it: the bound address once started, else as given */
  listen: string;
  upstream: string;
  enabled: boolean;
  /** in the order added; listed upstream first, then downstream, as Toxiproxy's chains are */
  toxics: Map<string, ToxicSpec>;
  tcp?: TcpProxy;
  /** counts of the TcpProxies this proxy had before (each disable closes one) */
  past: { connections: number; upstream: number; downstream: number };
  /**
   * The arena's own faults on this proxy (slow_agent, network_partition of a process target's agent),
   * leased through `registry`. Kept here, not in the TcpProxy, so a disable and enable by a Toxiproxy
   * client does not end them: each is applied again to the new TcpProxy.
   */
  arena: Map<string, { request: FaultRequest; applied?: AppliedFault }>;
  registry: FaultRegistry;
}

export interface ToxiproxyCollectionOptions {
  /** seeds each proxy's toxicity picks, jitter and slicing */
  seed: number;
  clock?: Clock;
}

/** an omitted listen is loopback, any free port (Toxiproxy's empty listen binds every interface) */
const DEFAULT_LISTEN = '127.0.0.1:0';

export class ToxiproxyCollection {
  private readonly proxies = new Map<string, ProxyState>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ToxiproxyCollectionOptions) {}

  /** runs changes one after another, so two requests never interleave their awaits */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private get(name: string): ProxyState {
    const proxy = this.proxies.get(name);
    if (!proxy) throw proxyNotFound();
    return proxy;
  }

  list(): Record<string, ProxyJson> {
    const out: Record<string, ProxyJson> = {};
    // Go marshals a map with its keys sorted
    for (const name of [...this.proxies.keys()].sort()) out[name] = proxyJson(this.proxies.get(name)!);
    return out;
  }

  show(name: string): ProxyJson {
    return proxyJson(this.get(name));
  }

  create(input: ProxyInput): Promise<ProxyJson> {
    return this.serial(async () => {
      const { name, upstream } = requireNameAndUpstream(input);
      if (this.proxies.has(name)) throw proxyExists();
      const proxy = this.newProxy(name, input.listen || DEFAULT_LISTEN, upstream);
      if (input.enabled ?? true) await this.start(proxy);
      this.proxies.set(name, proxy);
      return proxyJson(proxy);
    });
  }

  /**
   * Creates or replaces each proxy in turn: one with the same listen and upstream is left as it is
   * (ProxyCollection.AddOrReplace). Stops at the first failure, returning what was done before it.
   */
  populate(
    inputs: Array<ProxyInput & { name: string; upstream: string }>,
  ): Promise<{ proxies: ProxyJson[]; error?: ToxiproxyApiError }> {
    return this.serial(async () => {
      const done: ProxyJson[] = [];
      try {
        const fresh = inputs.map((input) => this.newProxy(input.name, input.listen || DEFAULT_LISTEN, input.upstream));
        for (const [i, proxy] of fresh.entries()) {
          const existing = this.proxies.get(proxy.name);
          if (existing && !differs(existing, proxy.listen, proxy.upstream)) {
            done.push(proxyJson(existing));
            continue;
          }
          if (existing) await this.stop(existing);
          // the arena's faults on a replaced proxy end with it
          if (existing) await existing.registry.revertAll();
          if (inputs[i]!.enabled ?? true) await this.start(proxy);
          this.proxies.set(proxy.name, proxy);
          done.push(proxyJson(proxy));
        }
        return { proxies: done };
      } catch (err) {
        return { proxies: done, error: asApiError(err) };
      }
    });
  }

  /** POST /proxies/{name}: a new listen or upstream restarts it (dropping its connections); enabled starts or stops it */
  update(name: string, input: ProxyInput): Promise<ProxyJson> {
    return this.serial(async () => {
      const proxy = this.get(name);
      const listen = input.listen ?? proxy.listen;
      const upstream = input.upstream ?? proxy.upstream;
      const enabled = input.enabled ?? proxy.enabled;
      checkAddresses(listen, upstream);
      if (differs(proxy, listen, upstream)) {
        await this.stop(proxy);
        proxy.listen = listen;
        proxy.upstream = upstream;
      }
      if (enabled && !proxy.enabled) await this.start(proxy);
      else if (!enabled && proxy.enabled) await this.stop(proxy);
      return proxyJson(proxy);
    });
  }

  remove(name: string): Promise<void> {
    return this.serial(async () => {
      const proxy = this.get(name);
      await this.stop(proxy);
      this.proxies.delete(name);
      await proxy.registry.revertAll();
    });
  }

  /** POST /reset: every proxy enabled, every toxic removed */
  reset(): Promise<void> {
    return this.serial(async () => {
      for (const proxy of this.proxies.values()) {
        if (!proxy.enabled) await this.start(proxy);
        for (const name of [...proxy.toxics.keys()]) {
          proxy.toxics.delete(name);
          proxy.tcp?.removeToxic(name);
        }
      }
    });
  }

  toxics(proxyName: string): ToxicJson[] {
    return toxicsJson(this.get(proxyName));
  }

  showToxic(proxyName: string, toxicName: string): ToxicJson {
    const toxic = this.get(proxyName).toxics.get(toxicName);
    if (!toxic) throw toxicNotFound();
    return toxicJson(toxic);
  }

  addToxic(proxyName: string, body: unknown): Promise<ToxicJson> {
    return this.serial(async () => {
      const proxy = this.get(proxyName);
      const toxic = parseToxicCreate(body, (name) => proxy.toxics.has(name));
      proxy.toxics.set(toxic.name, toxic);
      proxy.tcp?.setToxic(toxic);
      return toxicJson(toxic);
    });
  }

  updateToxic(proxyName: string, toxicName: string, body: unknown): Promise<ToxicJson> {
    return this.serial(async () => {
      const proxy = this.get(proxyName);
      const current = proxy.toxics.get(toxicName);
      if (!current) throw toxicNotFound();
      const toxic = parseToxicUpdate(body, current);
      proxy.toxics.set(toxic.name, toxic);
      proxy.tcp?.setToxic(toxic);
      return toxicJson(toxic);
    });
  }

  removeToxic(proxyName: string, toxicName: string): Promise<void> {
    return this.serial(async () => {
      const proxy = this.get(proxyName);
      if (!proxy.toxics.delete(toxicName)) throw toxicNotFound();
      proxy.tcp?.removeToxic(toxicName);
    });
  }

  counters(): ProxyCounters[] {
    return [...this.proxies.values()].map((p) => {
      const stats = p.tcp?.stats();
      return {
        name: p.name,
        listen: p.listen,
        upstream: p.upstream,
        enabled: p.enabled,
        toxics: p.toxics.size,
        connections: p.past.connections + (stats?.connections_total ?? 0),
        received: {
          upstream: p.past.upstream + (stats?.bytes_client_to_upstream ?? 0),
          downstream: p.past.downstream + (stats?.bytes_upstream_to_client ?? 0),
        },
      };
    });
  }

  /** The arena's fault registry of one proxy (its leased faults); throws 404 for an unknown proxy. */
  arenaFaults(name: string): FaultRegistry {
    return this.get(name).registry;
  }

  /** the proxy's TCP counters now (undefined while disabled) */
  arenaStats(name: string): { enabled: boolean; tcp?: TcpProxyStats } {
    const proxy = this.get(name);
    return { enabled: proxy.enabled, ...(proxy.tcp ? { tcp: proxy.tcp.stats() } : {}) };
  }

  /** closes every proxy and its connections, ending the arena's faults on them */
  close(): Promise<void> {
    return this.serial(async () => {
      for (const proxy of this.proxies.values()) {
        await this.stop(proxy);
        await proxy.registry.revertAll();
      }
    });
  }

  private newProxy(name: string, listen: string, upstream: string): ProxyState {
    checkAddresses(listen, upstream);
    const arena: ProxyState['arena'] = new Map();
    const proxy: ProxyState = {
      name,
      listen,
      upstream,
      enabled: false,
      toxics: new Map(),
      past: { connections: 0, upstream: 0, downstream: 0 },
      arena,
      registry: createFaultRegistry({
        ...(this.options.clock ? { clock: this.options.clock } : {}),
        // not serialised with the Toxiproxy routes: a delete reverts these while it holds the line
        apply: async (request) => {
          const spec = parseTcpFault(request);
          const entry: { request: FaultRequest; applied?: AppliedFault } = { request };
          if (proxy.tcp) entry.applied = proxy.tcp.applyFault(request);
          arena.set(request.id, entry);
          return {
            report: entry.applied?.report ?? {
              type: spec.type,
              params: describeParams(spec),
              // a disabled proxy refuses every connection already; the fault acts once it is enabled
              proxy_enabled: false,
            },
            revert: async () => {
              arena.delete(request.id);
              const applied = entry.applied;
              entry.applied = undefined;
              await applied?.revert?.();
            },
          };
        },
      }),
    };
    return proxy;
  }

  private async start(proxy: ProxyState): Promise<void> {
    if (proxy.enabled) return;
    const { host, port } = parseListen(proxy.listen);
    let tcp: TcpProxy;
    try {
      tcp = await startTcpProxy({
        listen: { host, port },
        upstream: parseHostPort(proxy.upstream),
        random: createRandom(deriveSeed(this.options.seed, `toxiproxy:${proxy.name}`)),
        ...(this.options.clock ? { clock: this.options.clock } : {}),
      });
    } catch (err) {
      throw listenError(err, formatAddress(host, port));
    }
    proxy.tcp = tcp;
    proxy.listen = formatAddress(tcp.address, tcp.port);
    proxy.enabled = true;
    for (const toxic of orderedToxics(proxy)) tcp.setToxic(toxic);
    // the arena's faults outlive a disable: they act on the new listener as on the old one
    for (const entry of proxy.arena.values()) entry.applied = tcp.applyFault(entry.request);
  }

  /** Toxiproxy's stop(): the listener closes and every connection with it */
  private async stop(proxy: ProxyState): Promise<void> {
    if (!proxy.enabled) return;
    proxy.enabled = false;
    const tcp = proxy.tcp;
    proxy.tcp = undefined;
    if (!tcp) return;
    const stats = tcp.stats();
    proxy.past.connections += stats.connections_total;
    proxy.past.upstream += stats.bytes_client_to_upstream;
    proxy.past.downstream += stats.bytes_upstream_to_client;
    for (const entry of proxy.arena.values()) entry.applied = undefined;
    await tcp.close();
  }
}

function checkAddresses(listen: string, upstream: string): void {
  parseListen(listen);
  try {
    parseHostPort(upstream);
  } catch (err) {
    if (err instanceof UsageError) throw badBody(err.message);
    throw err;
  }
}

/** Proxy.Differs: the listen address as resolved, or the upstream, is not the same */
function differs(proxy: ProxyState, listen: string, upstream: string): boolean {
  const want = parseListen(listen);
  return formatAddress(want.host, want.port) !== proxy.listen || upstream !== proxy.upstream;
}

/**
 * Go's listen error, which api.go's apiError turns into a 500 carrying `err.Error()`:
 * `listen tcp 127.0.0.1:26379: bind: address already in use`.
 */
function listenError(err: unknown, address: string): unknown {
  const code = ((err as { cause?: NodeJS.ErrnoException }).cause ?? (err as NodeJS.ErrnoException)).code;
  const why =
    code === 'EADDRINUSE'
      ? 'bind: address already in use'
      : code === 'EACCES'
        ? 'bind: permission denied'
        : code === 'EADDRNOTAVAIL'
          ? 'bind: cannot assign requested address'
          : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
            ? 'no such host'
            : undefined;
  if (!why) return err;
  return new ToxiproxyApiError(`listen tcp ${address}: ${why}`, 500);
}

function asApiError(err: unknown): ToxiproxyApiError {
  if (err instanceof ToxiproxyApiError) return err;
  return new ToxiproxyApiError(err instanceof Error ? err.message : String(err), 500);
}

function orderedToxics(proxy: ProxyState): ToxicSpec[] {
  const all = [...proxy.toxics.values()];
  return [...all.filter((t) => t.stream === 'upstream'), ...all.filter((t) => t.stream === 'downstream')];
}

function toxicJson(toxic: ToxicSpec): ToxicJson {
  return {
    attributes: attributesJson(toxic.attributes),
    name: toxic.name,
    type: toxic.attributes.type,
    stream: toxic.stream,
    toxicity: toxic.toxicity,
  };
}

function toxicsJson(proxy: ProxyState): ToxicJson[] {
  return orderedToxics(proxy).map(toxicJson);
}

function proxyJson(proxy: ProxyState): ProxyJson {
  return {
    name: proxy.name,
    listen: proxy.listen,
    upstream: proxy.upstream,
    enabled: proxy.enabled,
    toxics: toxicsJson(proxy),
  };
}
