/**
 * `kind: process` (DESIGN §9.1): the user's agents are ordinary processes and
 * whatever restarts them is the self-healing under test. This target starts
 * the optional start command, waits for every agent, runs the workload, and
 * applies faults to the processes; it never restarts anything itself.
 */
import { createMarkerBook } from '../../protocol/markers.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCallLedger } from '../../protocol/calls.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { RuntimeError } from '../../shared/errors.js';
import type { Random } from '../../shared/random.js';
import type { Tracing } from '../../shared/otlp/tracing.js';
import { AgentFleet } from './agents.js';
import type { AgentLocation, Target } from './contract.js';
import { createProcessFaults } from './faults.js';
import {
  proxyReports,
  startAgentProxies,
  startLlmProxies,
  startMcpProxies,
  type LlmProxies,
  type McpProxies,
  type RunningProxy,
} from './proxies.js';
import { discoverLeader } from './leader.js';
import { startManaged, type ManagedProcess } from './managed.js';
import { createProcessObserver } from './observer.js';
import { pidSource } from './pid.js';
import { describeProbe } from './probes.js';
import { API_KEY_ENV, PROBE_CLIENT, llmProbe } from './llm-probe.js';
import { DEFAULT_READY_TIMEOUT_MS, PROBE_DEFAULTS, type ProcessTargetSpec } from './spec.js';
import { agentUnsupported, unsupportedFaults, type ProxyKinds } from './unsupported.js';
import { startWatchdog, type Watchdog } from './watchdog.js';
import { createWorkload, type Workload } from './workload.js';
import { createTrialTasks } from '../trial-tasks.js';

export interface ProcessTargetOptions {
  /** the target file's folder: relative paths (cwd, pid files, hooks) resolve there */
  baseDir: string;
  clock?: Clock;
  random?: Random;
  /** the arena's environment: the LLM probe takes its API key from OPENAI_API_KEY / ANTHROPIC_API_KEY here (default process.env) */
  env?: Readonly<Record<string, string | undefined>>;
  /** false: the steady-state workload does not run (trials: its LLM calls would mix with the trials') */
  workload?: boolean;
  /** the run's OpenTelemetry tracing (--otlp): its LLM proxies trace each call, parented to the agent's traceparent */
  tracing?: Tracing;
}

/** which proxies this build can start (the TCP, LLM and MCP proxies land separately) */
const PROXY_KINDS: ProxyKinds = { tcp: true, llm: true, mcp: true };

/** the LLM probe's deadline: a held (`timeout`) call must not stall the recovery poll for long */
const LLM_PROBE_TIMEOUT_MS = 2000;
/** a failing probe is reused this long: fewer calls to a real API, recovery seen at most this late */
const LLM_PROBE_MIN_INTERVAL_MS = 250;

export function createProcessTarget(spec: ProcessTargetSpec, options: ProcessTargetOptions): Target {
  const clock = options.clock ?? systemClock;
  const baseDir = options.baseDir;
  const env: Record<string, string> = { ARENA_TARGET: spec.name };
  let watchdog: Watchdog | undefined;
  let managed: ManagedProcess | undefined;
  let workload: Workload | undefined;
  let runDir: string | undefined;
  let started = false;
  let stopping: Promise<void> | undefined;
  let proxies = new Map<string, RunningProxy>();
  let llm: LlmProxies | undefined;
  let mcp: McpProxies | undefined;
  // one ledger for every LLM and MCP proxy this target starts: trials read one sequence of calls
  const ledger = createCallLedger();
  // one book for every proxy and the workload: a canary the MCP proxy plants is found in an LLM request
  const markers = createMarkerBook();

  const exclude = () => new Set<number>(watchdog ? [process.pid, watchdog.pid] : [process.pid]);
  const fleet = new AgentFleet(spec.agents, { baseDir, env, clock, exclude });
  const unsupported = () => unsupportedFaults(spec, PROXY_KINDS);
  const leaderId = async () => {
    if (!spec.leader) throw new RuntimeError(`target ${spec.name} has no leader discovery`, { code: 'leader_unknown' });
    return discoverLeader(spec.leader, { cwd: baseDir, env });
  };

  const { runtime, book } = createProcessFaults({
    spec,
    baseDir,
    env,
    fleet,
    clock,
    watchdog: () => watchdog,
    exclude,
    proxy: (id) => proxies.get(id),
    mcpProxy: (id) => {
      const proxy = mcp?.byAgent.get(id);
      if (!proxy) return undefined;
      return { proxy, sharedWith: mcp!.shared.includes(id) ? mcp!.shared.filter((other) => other !== id) : [] };
    },
    llmProxy: (id) => {
      const proxy = llm?.byAgent.get(id);
      if (!proxy) return undefined;
      return { proxy, sharedWith: llm!.shared.includes(id) ? llm!.shared.filter((other) => other !== id) : [] };
    },
    unsupported,
    supervisorPid: () => managed?.pid,
    leaderId: () => leaderId().catch(() => undefined),
  });

  const arenaEnv = options.env ?? process.env;
  // a real API still failing after the fault is asked at most every 250 ms, not on every 50 ms poll
  const lastFailure = new Map<string, { at: number; problem: string }>();
  const probeLlm = (id: string) => {
    const proxy = llm?.byAgent.get(id);
    if (!proxy) return undefined;
    const recent = lastFailure.get(id);
    if (recent && clock.now() - recent.at < LLM_PROBE_MIN_INTERVAL_MS) return Promise.resolve(recent.problem);
    const apiKey = arenaEnv[API_KEY_ENV[proxy.api]];
    // the agents' own last call says which endpoint and model the upstream serves; the target file overrides
    const seen = proxy.lastRequest();
    const path = proxy.probe?.path ?? seen?.path;
    const model = proxy.probe?.model ?? seen?.model;
    return llmProbe({
      port: proxy.port,
      api: proxy.api,
      timeoutMs: LLM_PROBE_TIMEOUT_MS,
      ...(path ? { path } : {}),
      ...(model ? { model } : {}),
      ...(proxy.probe?.body ? { body: proxy.probe.body } : {}),
      ...(apiKey ? { apiKey } : {}),
    }).then((problem) => {
      if (problem === undefined) lastFailure.delete(id);
      else lastFailure.set(id, { at: clock.now(), problem });
      return problem;
    });
  };
  const observer = createProcessObserver({
    spec,
    fleet,
    book,
    workload: () => workload,
    leaderId,
    mcpSessions: (id) => mcp?.byAgent.get(id)?.sessions(),
    llmProbe: probeLlm,
  });

  /** every agent has a live pid and a healthy probe, or the reasons why not when time is up */
  const waitForAgents = async (timeoutMs: number) => {
    const deadline = clock.now() + timeoutMs;
    for (;;) {
      const problems: string[] = [];
      let hint: string | undefined;
      for (const agent of fleet.all()) {
        try {
          fleet.resolve(agent);
        } catch (err) {
          problems.push((err as Error).message);
          hint ??= (err as RuntimeError).hint;
          continue;
        }
        const probe = agent.monitor.state();
        if (!probe.healthy)
          problems.push(
            `agent ${agent.spec.id}: health probe ${describeProbe(agent.spec.health)} is not passing (${probe.lastProblem ?? `${probe.consecutive}/${agent.monitor.passes} passes`})`,
          );
      }
      if (problems.length === 0) return;
      const exit = managed?.exitStatus();
      if (exit !== undefined) {
        const tail = managed!.logTail();
        throw new RuntimeError(
          `start command ${JSON.stringify(spec.start!.command)} ${exit} while the agents were coming up${tail ? `. Its last output:\n${tail}` : ''}`,
          { code: 'start_failed' },
        );
      }
      if (clock.now() >= deadline)
        throw new RuntimeError(`target ${spec.name} is not ready after ${timeoutMs}ms:\n  ${problems.join('\n  ')}`, {
          code: 'target_not_ready',
          ...(hint ? { hint } : {}),
        });
      await clock.sleep(100);
    }
  };

  const target: Target = {
    kind: 'process',
    name: spec.name,
    runtime,
    observer,
    unsupportedFaults: unsupported,
    agentRefuses: (agentId, type) => agentUnsupported(spec, agentId, type),
    // a marker in a task's answer reached the user, as in a workload answer
    ...optionalTrials(spec, (body) => {
      if (markers.isTracking) markers.scan(body, 'reached_user');
    }),
    // the agents' calls, when an LLM or MCP proxy sees them: without one there is nothing to read, and a
    // reader (trials, spend_above) must say "not measured" rather than count zero. The arena's own
    // recovery probes pass through the same proxies and are left out.
    ...(seesCalls(spec)
      ? {
          calls: {
            calls(since?: number) {
              const page = ledger.calls(since);
              return { ...page, records: page.records.filter((r) => r.client !== PROBE_CLIENT) };
            },
          },
        }
      : {}),
    proxies: () => proxyReports({ tcp: proxies, llm, mcp }, true),
    markers: () => markers.travel(),

    async start(startOptions = {}) {
      if (started) throw new RuntimeError(`target ${spec.name} is already started`, { code: 'already_started' });
      started = true;
      try {
        runDir = mkdtempSync(join(tmpdir(), 'chaos-arena-process-'));
        env.ARENA_RUN_DIR = runDir;
        watchdog = await startWatchdog(runDir, {
          // no watchdog, no guarantee: end every fault now rather than leave one that a crash would strand
          onLost: () => void book.revertAll().catch(() => {}),
        });
        // before the start command: the fleet talks through its proxies from its first request
        proxies = await startAgentProxies(spec.agents, {
          clock,
          watchdog: () => watchdog,
          env: arenaEnv,
          ...(options.random ? { random: options.random } : {}),
        });
        llm = await startLlmProxies(spec, {
          clock,
          ledger,
          markers,
          ...(options.tracing ? { tracing: options.tracing } : {}),
          ...(options.random ? { random: options.random } : {}),
        });
        mcp = await startMcpProxies(spec, {
          clock,
          ledger,
          markers,
          ...(options.random ? { random: options.random } : {}),
        });
        if (spec.start) {
          const w = watchdog;
          managed = await startManaged(spec.start, {
            baseDir,
            runDir,
            env,
            clock,
            onSpawn: (pid, start, graceMs) => w.tell({ op: 'group', pid, start, graceMs }),
          });
        }
        fleet.startTracking();
        // a fleet someone else runs is either up now or not at all; a started one gets its ready timeout
        const probeTime = Math.max(
          ...spec.agents.map(
            (a) =>
              (a.health.interval ?? PROBE_DEFAULTS.intervalMs) * ((a.health.passes ?? PROBE_DEFAULTS.passes) + 1) +
              (a.health.timeout ?? PROBE_DEFAULTS.timeoutMs),
          ),
        );
        await waitForAgents(spec.start ? (spec.start.ready?.timeout ?? DEFAULT_READY_TIMEOUT_MS) : probeTime + 1000);
        if (spec.workload && options.workload !== false && startOptions.workload !== false) {
          workload = createWorkload(spec.workload, clock, {
            onAnswer: (answer) => {
              if (markers.isTracking) markers.scan(answer.body, 'reached_user');
            },
          });
          workload.start();
        }
      } catch (err) {
        await target.stop();
        throw err;
      }
    },

    stop() {
      stopping ??= (async () => {
        const errors: unknown[] = [];
        const attempt = async (fn: () => Promise<void> | void) => {
          try {
            await fn();
          } catch (err) {
            errors.push(err);
          }
        };
        await attempt(() => workload?.stop());
        await attempt(() => book.revertAll());
        fleet.stopTracking();
        // the fleet first, its proxies after: an agent ending on SIGTERM still reaches its LLM and MCP
        // servers through them (closing its MCP session), instead of failing on a closed port
        if (managed) {
          const m = managed;
          await attempt(() => m.stop());
          await attempt(() => watchdog?.tell({ op: 'ungroup', pid: m.pid }));
        }
        for (const proxy of proxies.values()) await attempt(() => proxy.close());
        await attempt(() => llm?.close());
        await attempt(() => mcp?.close());
        await attempt(() => watchdog?.finish());
        if (runDir) rmSync(runDir, { recursive: true, force: true });
        if (errors.length > 0)
          throw new RuntimeError(
            `stopping target ${spec.name}: ${errors.map((e) => (e as Error).message).join('; ')}`,
            { code: 'stop_failed' },
          );
      })();
      return stopping;
    },

    async locate() {
      return fleet.all().map((agent): AgentLocation => {
        const id = agent.spec.id;
        const tcp = proxies.get(id);
        const llmProxy = llm?.byAgent.get(id);
        const mcpProxy = mcp?.byAgent.get(id);
        const location: AgentLocation = {
          id,
          pid_source: pidSource(agent.spec.pid),
          proxies: [
            ...(tcp && agent.spec.proxy
              ? [
                  'toxiproxy' in agent.spec.proxy
                    ? `tcp ${tcp.listen} → ${tcp.upstream} (toxiproxy ${agent.spec.proxy.name})`
                    : `tcp 127.0.0.1:${tcp.port} → ${tcp.upstream}`,
                ]
              : []),
            ...(llmProxy ? [`llm 127.0.0.1:${llmProxy.port}`] : []),
            ...(mcpProxy ? [`mcp 127.0.0.1:${mcpProxy.port}`] : []),
          ],
        };
        try {
          location.pid = fleet.resolve(agent).pid;
        } catch (err) {
          location.problem = (err as Error).message;
        }
        return location;
      });
    },

    async describe() {
      const agents = await runtime.listAgents();
      return {
        name: spec.name,
        kind: 'process',
        agents,
        dag: { nodes: [], edges: [] },
        strategy: {
          kind: 'process',
          supervisor: spec.start
            ? { command: spec.start.command, managed_by_arena: true }
            : { managed_by_arena: false },
          agents: spec.agents.map((a) => ({
            id: a.id,
            role: a.role,
            pid: pidSource(a.pid),
            health: describeProbe(a.health),
            ...(a.proxy ? { proxy: a.proxy } : {}),
          })),
          leader: spec.leader
            ? 'http' in spec.leader
              ? `GET ${spec.leader.http} ${spec.leader.json}`
              : spec.leader.command
            : null,
          workload: spec.workload
            ? {
                rate_per_s: spec.workload.rate,
                request: `${spec.workload.request.method} ${spec.workload.request.url}`,
              }
            : null,
          invariants: (spec.invariants ?? []).map((i) => i.name),
          // where each proxy listens once started (a port 0 in the file is the one it got)
          proxies: proxyReports({ tcp: proxies, llm, mcp }, false),
          unsupported_faults: unsupported(),
        },
      };
    },
  };
  return target;
}

function optionalTrials(
  spec: ProcessTargetSpec,
  onAnswer: (body: string) => void,
): { trials?: NonNullable<Target['trials']> } {
  const trials = createTrialTasks(spec, { onAnswer });
  return trials ? { trials } : {};
}

/** whether any LLM or MCP proxy of this target records calls */
function seesCalls(spec: ProcessTargetSpec): boolean {
  return spec.llm !== undefined || spec.mcp !== undefined || spec.agents.some((a) => a.llm || a.mcp);
}
