/**
 * The TCP fault proxy (DESIGN §10.1) on `node:net`: listens, opens one
 * upstream connection per client, passes bytes through untouched, and
 * applies faults to the connections already open and to the ones opened
 * while the fault is active. Returns a handle; it never prints.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AppliedFault } from '../../protocol/fault-registry.js';
import { ProtocolError, notApplicable, type FaultRequest } from '../../protocol/wire.js';
import { systemClock, type Clock, type TimerHandle } from '../../shared/clock.js';
import { createRandom, deriveSeed, randomSeed, type Random } from '../../shared/random.js';
import type { ToxicSpec } from './toxic-spec.js';
import { describeParams, parseTcpFault, type TcpFaultSpec } from './fault-spec.js';
import { listenFailure, type TcpEndpoint } from './endpoint.js';

export type { TcpEndpoint } from './endpoint.js';
import { Link } from './link.js';

export interface TcpProxyOptions {
  /** host defaults to 127.0.0.1; port 0 picks a free one */
  listen: { host?: string; port: number };
  upstream: TcpEndpoint;
  clock?: Clock;
  /** decides which connections a fault with a `probability` acts on, and samples jitter */
  random?: Random;
}

export interface TcpProxyStats {
  connections_total: number;
  connections_open: number;
  connections_reset: number;
  connections_timed_out: number;
  bytes_client_to_upstream: number;
  bytes_upstream_to_client: number;
  faults_injected: number;
  faults_active: number;
  /** false while a blackhole refuses new connections */
  is_accepting: boolean;
}

export interface TcpProxy {
  readonly host: string;
  readonly port: number;
  /** the address actually bound (`127.0.0.1` for `localhost`) */
  readonly address: string;
  /**
   * Adds a Toxiproxy toxic, or updates one of that name: it acts on its stream of the connections open
   * now and of those opened later, each picked or not by a draw from the seed, the toxic's name and the
   * connection's number, so a seed replays the same picks and toxicity 0 picks none.
   */
  setToxic(toxic: ToxicSpec): void;
  /** removes a toxic from every connection (a timeout toxic closes the connections it held, as Toxiproxy's does) */
  removeToxic(name: string): void;
  /** Applies a fault now; throws a ProtocolError (400 / 422 / 409) naming what is wrong, having changed nothing. */
  applyFault(request: Pick<FaultRequest, 'id' | 'type' | 'params'>): AppliedFault;
  stats(): TcpProxyStats;
  /** stops listening, closes every connection, drops every fault */
  close(): Promise<void>;
}

interface ActiveFault {
  id: string;
  spec: TcpFaultSpec;
}

/** a blackhole acting on every connection refuses new ones: the listener stops, so clients see ECONNREFUSED */
const refusesNew = (spec: TcpFaultSpec) =>
  spec.type === 'blackhole' && (spec.probability === undefined || spec.probability >= 1);

const RELISTEN_TRIES = 50;
const RELISTEN_INTERVAL_MS = 100;
/** after the revert has failed: how often the proxy tries its port again */
const RELISTEN_BACKGROUND_MS = 1000;

export async function startTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? createRandom(randomSeed());
  // separate streams, so how much jitter was sampled never shifts which connections a fault picks
  const rolls = random.fork('connections');
  const jitter = random.fork('jitter');
  const host = options.listen.host ?? '127.0.0.1';
  const upstream = options.upstream;
  const faults = new Map<string, ActiveFault>();
  const links = new Set<Link>();
  const counts = { total: 0, reset: 0, timedOut: 0, up: 0, down: 0, injected: 0 };
  const toxics = new Map<string, ToxicSpec>();
  const toxicSeed = deriveSeed(random.seed, 'toxicity');
  /** the same toxic name, connection number and seed always decide the same way */
  const picks = (toxic: ToxicSpec, link: Link) =>
    toxic.toxicity >= 1 ||
    (toxic.toxicity > 0 && createRandom(deriveSeed(toxicSeed, `${toxic.name}#${link.id}`)).next() < toxic.toxicity);
  let nextLinkId = 1;
  let isClosed = false;
  let relistenTimer: TimerHandle | undefined;

  const acts = (spec: TcpFaultSpec) => spec.probability === undefined || rolls.next() < spec.probability;

  const counters = {
    clientToUpstream: (n: number) => void (counts.up += n),
    upstreamToClient: (n: number) => void (counts.down += n),
    closedByTimeout: () => void counts.timedOut++,
  };

  const onConnection = (client: Socket) => {
    counts.total++;
    client.setNoDelay(true);
    // decided in fault order at accept time, so a fault applied at any moment sees every connection exactly once
    const chosen: ActiveFault[] = [];
    for (const fault of faults.values()) {
      if (!acts(fault.spec)) continue;
      if (fault.spec.type === 'reset') {
        counts.reset++;
        client.on('error', () => {});
        client.resetAndDestroy();
        return;
      }
      chosen.push(fault);
    }
    const toUpstream = connect({ host: upstream.host, port: upstream.port, allowHalfOpen: true, noDelay: true });
    const link = new Link(nextLinkId++, client, toUpstream, clock, jitter, counters, (done) => links.delete(done));
    links.add(link);
    for (const fault of chosen) link.addFault(fault.id, fault.spec);
    for (const toxic of toxics.values())
      if (picks(toxic, link)) link.setToxic(toxic.name, toxic.stream, toxic.attributes);
    // the client was accepted paused; it is read once the upstream answers, so nothing piles up meanwhile
    toUpstream.once('connect', () => client.resume());
  };

  const listen = (port: number) =>
    new Promise<Server>((resolve, reject) => {
      const server = createServer({ allowHalfOpen: true, pauseOnConnect: true, noDelay: true }, onConnection);
      server.once('error', reject);
      server.listen({ host, port }, () => {
        server.off('error', reject);
        // an accept that fails (out of file descriptors) drops that one connection; the proxy keeps serving
        server.on('error', () => undefined);
        resolve(server);
      });
    });

  let server: Server | undefined;
  try {
    server = await listen(options.listen.port);
  } catch (err) {
    throw listenFailure(err, 'proxy', host, options.listen.port);
  }
  const { port, address } = server.address() as { port: number; address: string };

  const stopListening = () => {
    relistenTimer?.cancel();
    relistenTimer = undefined;
    // open connections stay: closing a net.Server only stops it accepting
    server?.close();
    server = undefined;
  };

  /**
   * Listens again on the same port. Another process may have taken it meanwhile: the revert retries
   * for a while and then fails saying so (never "reverted" while nothing listens), and the proxy
   * keeps trying in the background, so it serves again as soon as the port is free.
   */
  const listenAgain = () =>
    new Promise<void>((resolve, reject) => {
      let tries = 0;
      let settled = false;
      const attempt = () => {
        relistenTimer = undefined;
        if (isClosed || server || faultsRefuse()) {
          settled = true;
          return resolve();
        }
        listen(port).then(
          (s) => {
            if (isClosed || faultsRefuse()) s.close();
            else server = s;
            settled = true;
            resolve();
          },
          (err: unknown) => {
            if (++tries === RELISTEN_TRIES && !settled) {
              settled = true;
              reject(
                new ProtocolError(
                  503,
                  'revert_failed',
                  `the blackhole ended but ${host}:${port} cannot be listened on again (${(err as Error).message}); retrying every ${RELISTEN_BACKGROUND_MS} ms`,
                ),
              );
            }
            relistenTimer = clock.setTimer(
              tries < RELISTEN_TRIES ? RELISTEN_INTERVAL_MS : RELISTEN_BACKGROUND_MS,
              attempt,
            );
          },
        );
      };
      attempt();
    });

  const faultsRefuse = () => [...faults.values()].some((f) => refusesNew(f.spec));

  const applyFault: TcpProxy['applyFault'] = (request) => {
    const spec = parseTcpFault(request);
    if (isClosed) throw notApplicable('the TCP proxy is closed');
    if (faults.has(request.id)) throw new ProtocolError(409, 'conflict', `id: fault ${request.id} is already active`);
    const fault: ActiveFault = { id: request.id, spec };
    faults.set(fault.id, fault);
    const open = links.size;
    let affected = 0;
    for (const link of [...links]) {
      if (!acts(spec)) continue;
      affected++;
      link.addFault(fault.id, spec);
    }
    if (spec.type === 'reset') counts.reset += affected;
    const refuses = refusesNew(spec);
    if (refuses) stopListening();
    counts.injected++;
    return {
      report: {
        type: spec.type,
        params: describeParams(spec),
        connections_open: open,
        connections_affected: affected,
        new_connections: refuses ? 'refused' : spec.type === 'reset' ? 'reset' : 'affected',
      },
      revert: async () => {
        if (!faults.delete(fault.id)) return;
        for (const link of links) link.removeFault(fault.id);
        if (refuses) await listenAgain();
      },
    };
  };

  const setToxic: TcpProxy['setToxic'] = (toxic) => {
    const before = toxics.get(toxic.name);
    toxics.set(toxic.name, toxic);
    for (const link of [...links]) {
      // a stream change moves the toxic: it leaves the old direction without the cleanup of a delete
      if (before && before.stream !== toxic.stream) link.removeToxic(toxic.name, before.stream, false);
      if (picks(toxic, link)) link.setToxic(toxic.name, toxic.stream, toxic.attributes);
      else link.removeToxic(toxic.name, toxic.stream, false);
    }
  };

  return {
    host,
    port,
    address,
    setToxic,
    removeToxic(name) {
      const toxic = toxics.get(name);
      if (!toxic) return;
      toxics.delete(name);
      for (const link of [...links]) link.removeToxic(name, toxic.stream, true);
    },
    applyFault,
    stats: () => ({
      connections_total: counts.total,
      connections_open: links.size,
      connections_reset: counts.reset,
      connections_timed_out: counts.timedOut,
      bytes_client_to_upstream: counts.up,
      bytes_upstream_to_client: counts.down,
      faults_injected: counts.injected,
      faults_active: faults.size,
      is_accepting: server !== undefined,
    }),
    async close() {
      if (isClosed) return;
      isClosed = true;
      relistenTimer?.cancel();
      faults.clear();
      toxics.clear();
      const closing = server;
      server = undefined;
      for (const link of [...links]) link.destroy();
      if (closing) await new Promise<void>((done) => closing.close(() => done()));
    },
  };
}
