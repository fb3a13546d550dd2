/**
 * The TCP fault proxies a process target puts in front of its agents
 * (`proxy: { listen, upstream }`): started before the start command, so the
 * fleet connects through them from its first request, and closed (every
 * fault dropped) at the end. They live in the arena's process: if the arena
 * dies, they die with it and nothing is left faulted.
 */
import { ProtocolError } from '../../protocol/wire.js';
import { startLlmProxy } from '../../proxies/llm/index.js';
import { startHttpMcpProxy } from '../../proxies/mcp/index.js';
import { parseHostPort, startTcpProxy, type TcpProxy } from '../../proxies/tcp/index.js';
import type { ProxyReport } from '../../arena/providers.js';
import type { CallLedger } from '../../protocol/calls.js';
import type { Clock } from '../../shared/clock.js';
import type { MarkerBook } from '../../protocol/markers.js';
import type { Tracing } from '../../shared/otlp/tracing.js';
import { RuntimeError, UsageError } from '../../shared/errors.js';
import { deriveRandom, type Random } from '../../shared/random.js';
import type { AgentProxy } from './faults.js';
import { PROBE_CLIENT } from './llm-probe.js';
import type { AgentSpec, ProcessTargetSpec } from './spec.js';
import { connectToxiproxyProxy } from './toxiproxy-proxy.js';
import type { Watchdog } from './watchdog.js';

export interface RunningProxy extends AgentProxy {
  readonly port: number;
  /** where agents connect (host:port for TCP, the base URL for LLM and MCP), and where it forwards to */
  readonly listen: string;
  readonly upstream: string;
  /** its counters, as its control port's `GET /v1/stats` would give them */
  stats(): Record<string, unknown>;
  close(): Promise<void>;
}

/** refusals from a proxy become RuntimeErrors naming the agent (the fault was not applied) */
function wrap(agentId: string, kind: string, apply: AgentProxy['applyFault']): AgentProxy['applyFault'] {
  return async (request) => {
    try {
      return await apply(request);
    } catch (err) {
      if (err instanceof ProtocolError)
        throw new RuntimeError(`agent ${agentId}'s ${kind} proxy refused the fault: ${err.message}`, {
          code: err.code,
        });
      throw err;
    }
  };
}

export interface LlmRunning extends RunningProxy {
  readonly api: 'openai' | 'anthropic';
  /** what the target file fixes of the recovery probe (`llm.probe`) */
  readonly probe?: { path?: string; model?: string; body?: Record<string, unknown> };
  /** the path and model of the agents' last call through this proxy: what the probe asks by default */
  lastRequest(): { path: string; model?: string } | undefined;
}

export interface LlmProxies {
  /** agent id → the LLM proxy its calls go through (its own, or the shared one) */
  byAgent: Map<string, LlmRunning>;
  /** agents behind the shared top-level proxy: a fault on one acts on all of them */
  shared: string[];
  close(): Promise<void>;
}

export interface McpRunning extends RunningProxy {
  /** sessions opened through the proxy so far, and open now: an agent reconnecting shows here */
  sessions(): { open: number; total: number };
}

export interface McpProxies {
  byAgent: Map<string, McpRunning>;
  shared: string[];
  close(): Promise<void>;
}

/** Proxies per agent: one for each agent that configures its own, one shared by the rest when the top level configures one. */
async function startPerAgent<C, R extends RunningProxy>(
  agents: readonly AgentSpec[],
  top: C | undefined,
  own: (agent: AgentSpec) => C | undefined,
  /** `agent` is the agent the proxy belongs to, undefined for the shared one */
  start: (config: C, label: string, agent: string | undefined) => Promise<R>,
): Promise<{ byAgent: Map<string, R>; shared: string[]; close(): Promise<void> }> {
  const started: R[] = [];
  const byAgent = new Map<string, R>();
  const launch = async (config: C, label: string, agent?: string) => {
    const running = await start(config, label, agent);
    started.push(running);
    return running;
  };
  const close = async () => void (await Promise.all(started.map((p) => p.close().catch(() => {}))));
  try {
    const shared = top === undefined ? undefined : await launch(top, 'shared');
    const behindShared: string[] = [];
    for (const agent of agents) {
      const config = own(agent);
      if (config !== undefined) byAgent.set(agent.id, await launch(config, agent.id, agent.id));
      else if (shared) {
        byAgent.set(agent.id, shared);
        behindShared.push(agent.id);
      }
    }
    return { byAgent, shared: behindShared, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** `mcp:` per agent, or once at the top level for every agent without its own (streamable HTTP). */
export function startMcpProxies(
  spec: ProcessTargetSpec,
  options: { clock: Clock; random?: Random; ledger: CallLedger; markers?: MarkerBook },
): Promise<McpProxies> {
  return startPerAgent(
    spec.agents,
    spec.mcp,
    (agent) => agent.mcp,
    async (config, label, agent): Promise<McpRunning> => {
      const proxy = await startHttpMcpProxy({
        upstream: config.upstream,
        port: config.listen,
        clock: options.clock,
        ledger: options.ledger,
        ...(agent !== undefined ? { agent } : {}),
        // derived, not forked: the other proxies' draws stay what they were for the same seed
        ...(options.random ? { seed: deriveRandom(options.random.seed, `mcp:${label}`).seed } : {}),
        ...(options.markers ? { markers: options.markers } : {}),
      });
      return {
        port: proxy.port,
        listen: proxy.url,
        upstream: config.upstream,
        stats: () => ({ ...proxy.stats() }),
        applyFault: wrap(label, 'MCP', async (request) => {
          const { body } = await proxy.faults.add(request);
          return { report: body.report, revert: async () => void (await proxy.faults.remove(request.id)) };
        }),
        sessions: () => proxy.stats().sessions,
        close: () => proxy.close(),
      };
    },
  );
}

/** `llm:` per agent, or once at the top level for every agent without its own. */
export function startLlmProxies(
  spec: ProcessTargetSpec,
  options: { clock: Clock; random?: Random; ledger: CallLedger; markers?: MarkerBook; tracing?: Tracing },
): Promise<LlmProxies> {
  return startPerAgent(
    spec.agents,
    spec.llm,
    (agent) => agent.llm,
    async (config, label, agent): Promise<LlmRunning> => {
      const proxy = await startLlmProxy({
        listen: config.listen,
        upstream: config.upstream,
        api: config.api,
        clock: options.clock,
        probeClient: PROBE_CLIENT,
        // every proxy of the target records into its one ledger (Target.calls)
        ledger: options.ledger,
        ...(agent !== undefined ? { agent } : {}),
        ...(options.random ? { random: options.random.fork(`llm:${label}`) } : {}),
        ...(options.markers ? { markers: options.markers } : {}),
        ...(options.tracing ? { tracing: options.tracing } : {}),
      });
      return {
        port: proxy.port,
        listen: proxy.url,
        upstream: config.upstream,
        stats: () => ({ ...proxy.stats() }),
        api: config.api,
        ...(config.probe ? { probe: config.probe } : {}),
        lastRequest: () => proxy.lastRequest(),
        applyFault: wrap(label, 'LLM', (r) => proxy.applyFault(r)),
        close: () => proxy.close(),
      };
    },
  );
}

/** `proxy:` per agent: a TCP proxy started here, or one an `arena toxiproxy` server runs (looked up by name). */
export async function startAgentProxies(
  agents: readonly AgentSpec[],
  options: {
    clock: Clock;
    random?: Random;
    watchdog: () => Watchdog | undefined;
    env: Readonly<Record<string, string | undefined>>;
  },
): Promise<Map<string, RunningProxy>> {
  const running = new Map<string, RunningProxy>();
  try {
    for (const agent of agents) {
      if (!agent.proxy) continue;
      if ('toxiproxy' in agent.proxy) {
        const keyEnv = agent.proxy.api_key_env;
        const apiKey = keyEnv === undefined ? undefined : options.env[keyEnv];
        if (keyEnv !== undefined && !apiKey)
          throw new UsageError(`agents.${agent.id}.proxy.api_key_env: ${keyEnv} is not set`, {
            code: 'missing_api_key',
          });
        const found = await connectToxiproxyProxy({
          ...(apiKey ? { apiKey } : {}),
          agentId: agent.id,
          url: agent.proxy.toxiproxy,
          name: agent.proxy.name,
          clock: options.clock,
          watchdog: options.watchdog,
        });
        running.set(agent.id, { ...found, applyFault: wrap(agent.id, 'TCP', found.applyFault) });
        continue;
      }
      const upstream = parseHostPort(agent.proxy.upstream, `agents.${agent.id}.proxy.upstream`);
      const proxy: TcpProxy = await startTcpProxy({
        listen: { port: agent.proxy.listen },
        upstream,
        clock: options.clock,
        ...(options.random ? { random: options.random.fork(`proxy:${agent.id}`) } : {}),
      });
      running.set(agent.id, {
        port: proxy.port,
        listen: `${proxy.host}:${proxy.port}`,
        upstream: agent.proxy.upstream,
        stats: () => ({ ...proxy.stats() }),
        applyFault: wrap(agent.id, 'TCP', async (request) => proxy.applyFault(request)),
        close: () => proxy.close(),
      });
    }
  } catch (err) {
    await Promise.all([...running.values()].map((p) => p.close().catch(() => {})));
    throw err;
  }
  return running;
}

/**
 * Every proxy running in front of the fleet, once each (a shared proxy lists all its agents), for
 * run reports (with their stats) and `describe --target` (without).
 */
export function proxyReports(
  running: {
    tcp: ReadonlyMap<string, RunningProxy>;
    llm?: { byAgent: ReadonlyMap<string, RunningProxy> } | undefined;
    mcp?: { byAgent: ReadonlyMap<string, RunningProxy> } | undefined;
  },
  withStats: boolean,
): ProxyReport[] {
  const reports: ProxyReport[] = [];
  const add = (kind: ProxyReport['kind'], byAgent: ReadonlyMap<string, RunningProxy> | undefined) => {
    const agents = new Map<RunningProxy, string[]>();
    for (const [agent, proxy] of byAgent ?? []) agents.set(proxy, [...(agents.get(proxy) ?? []), agent]);
    for (const [proxy, ids] of agents)
      reports.push({
        kind,
        agents: ids,
        listen: proxy.listen,
        upstream: proxy.upstream,
        ...(withStats ? { stats: proxy.stats() } : {}),
      });
  };
  add('tcp', running.tcp);
  add('llm', running.llm?.byAgent);
  add('mcp', running.mcp?.byAgent);
  return reports;
}
