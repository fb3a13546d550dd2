/**
 * The faults a process target applies for real: SIGKILL, SIGSTOP/SIGCONT to
 * the agent's process tree (pid resolved afresh each time), TCP proxy faults
 * for slowness and partitions, and hook commands for faults with no OS form.
 * A fault the target cannot apply throws RuntimeError naming the agent and
 * the cause; an unknown agent throws NotFoundError.
 */
import type { ActionType, LlmErrorType } from '../../arena/action.js';
import type { Clock } from '../../shared/clock.js';
import { RuntimeError } from '../../shared/errors.js';
import type { FaultRequest } from '../../protocol/wire.js';
import type { AgentFleet, TrackedAgent } from './agents.js';
import { describeFailure, runCommand } from './command.js';
import type { FaultOptions, FaultReport, RuntimeProvider } from './contract.js';
import { FaultBook } from './fault-book.js';
import { isAlive, isStopped, processTable } from './proc.js';
import { readStat } from '../../shared/proc.js';
import { agentTree, signalPids } from './signals.js';
import type { ProcessTargetSpec } from './spec.js';
import type { TrackedPid, Watchdog } from './watchdog.js';

/** A TCP fault proxy in front of one agent, as the faults need it. */
export interface AgentProxy {
  applyFault(request: FaultRequest): Promise<{ report?: Record<string, unknown>; revert?: () => Promise<void> | void }>;
}

export interface FaultContext {
  spec: ProcessTargetSpec;
  baseDir: string;
  env: Record<string, string>;
  fleet: AgentFleet;
  clock: Clock;
  /** the running watchdog; faults that stop processes refuse to act without one */
  watchdog(): Watchdog | undefined;
  exclude(): ReadonlySet<number>;
  proxy(agentId: string): AgentProxy | undefined;
  /** the MCP proxy the agent's session goes through, and the other agents behind the same one */
  mcpProxy(
    agentId: string,
  ): { proxy: AgentProxy & { sessions(): { open: number; total: number } }; sharedWith: string[] } | undefined;
  /** the LLM proxy the agent's calls go through, and the other agents behind the same one */
  llmProxy(agentId: string): { proxy: AgentProxy; sharedWith: string[] } | undefined;
  unsupported(): Partial<Record<ActionType, string>>;
  /** the start command's process, never to be signalled as an agent */
  supervisorPid(): number | undefined;
  /** who leads now, per the target's leader discovery; undefined when unknown */
  leaderId(): Promise<string | undefined>;
}

const HOOK_TIMEOUT_MS = 10_000;
/** how long a SIGKILLed process gets to disappear (or a SIGSTOPped one to show stopped) before the fault fails */
const KILL_VERIFY_MS = 5000;

/** gone: no such process, a zombie (it has exited), or its pid now names another process */
function isGone(pid: number, start: number): boolean {
  const stat = readStat(pid);
  return stat === undefined || stat.state === 'Z' || stat.state === 'X' || stat.startTime !== start;
}

/** the signal did not reach the agent's own process: say truly why */
function notSignalled(
  type: string,
  done: string,
  agentId: string,
  pid: number,
  start: number,
  refused: { pid: number; reason: string }[],
): RuntimeError {
  const denied = refused.find((r) => r.pid === pid);
  if (denied)
    return new RuntimeError(
      `${type}: agent ${agentId}'s process ${pid} could not be ${done}: the kernel refused the signal (${denied.reason}; is it another user's?)`,
      { code: 'signal_refused' },
    );
  if (isGone(pid, start))
    return new RuntimeError(`${type}: agent ${agentId}'s process ${pid} exited before it could be ${done}`, {
      code: 'agent_down',
    });
  return new RuntimeError(
    `${type}: agent ${agentId}'s process ${pid} was not ${done}: it is not one the arena may signal`,
    { code: 'unsafe_pid' },
  );
}

export function createProcessFaults(ctx: FaultContext): { runtime: RuntimeProvider; book: FaultBook } {
  const { fleet } = ctx;
  const book = new FaultBook(ctx.clock);

  const refuseUnsupported = (type: ActionType) => {
    const why = ctx.unsupported()[type];
    if (why) throw new RuntimeError(`${type}: ${why}`, { code: 'unsupported' });
  };

  const needWatchdog = (type: string): Watchdog => {
    const w = ctx.watchdog();
    if (!w)
      throw new RuntimeError(`${type}: target ${ctx.spec.name} is not started (no watchdog to guarantee the revert)`, {
        code: 'not_started',
      });
    return w;
  };

  const resume = async (agent: TrackedAgent): Promise<number[]> => {
    const pids = agent.paused;
    agent.paused = undefined;
    if (!pids) return [];
    // only the very processes we stopped: a pid reused since then is not ours to touch
    const same = pids.filter((p) => readStat(p.pid)?.startTime === p.start).map((p) => p.pid);
    const { sent } = signalPids([...same].reverse(), 'SIGCONT');
    await ctx.watchdog()?.tell({ op: 'resume', pids });
    agent.monitor.reset();
    return sent;
  };

  /**
   * The tree a signal to this agent would reach, refused when it holds the
   * start command (the supervisor) or another agent: a pid source that names a
   * supervisor (a cluster master holding the port, a too-wide match) must not
   * take the whole fleet down.
   */
  const safeTree = (type: string, agent: TrackedAgent, pid: number): number[] => {
    const tree = agentTree(pid, processTable(), ctx.exclude());
    const supervisor = ctx.supervisorPid();
    if (supervisor !== undefined && tree.includes(supervisor)) {
      throw new RuntimeError(
        `${type}: agent ${agent.spec.id} resolves to pid ${pid}, which is the start command's own process or above it (the supervisor); name the agent's process instead`,
        { code: 'unsafe_target' },
      );
    }
    for (const other of fleet.all()) {
      if (other === agent || other.pid === undefined || !tree.includes(other.pid) || !fleet.isLastPidAlive(other))
        continue;
      throw new RuntimeError(
        `${type}: agent ${agent.spec.id}'s process tree (pid ${pid}) includes agent ${other.spec.id} (pid ${other.pid}); refusing to take down another agent`,
        { code: 'unsafe_target' },
      );
    }
    return tree;
  };

  /** a fault a proxy in front of the agent applies: the agent's own process is untouched */
  const throughProxy = async (
    type: ActionType,
    agentId: string,
    proxy: AgentProxy | undefined,
    proxyName: string,
    wire: Omit<FaultRequest, 'id' | 'lease_ms' | 'target_id'>,
    options: FaultOptions | undefined,
    sharedWith: readonly string[] = [],
  ): Promise<FaultReport> => {
    refuseUnsupported(type);
    const agent = fleet.get(agentId, type);
    if (!proxy) throw new RuntimeError(`${type}: agent ${agentId} has no ${proxyName}`, { code: 'unsupported' });
    const durationMs = FaultBook.checkDuration(type, options);
    await book.endAll(type, agentId);
    const id = book.nextId();
    // the proxy lives in this process: it cannot outlive the arena, so the lease only needs to cover the fault
    const applied = await proxy.applyFault({
      ...wire,
      id,
      target_id: agentId,
      lease_ms: 24 * 3600 * 1000,
      ...(durationMs !== undefined ? { duration_ms: durationMs } : {}),
    });
    // its passes count afresh from the revert (network aspect)
    const fault = book.add(
      type,
      agentId,
      options,
      async () => {
        await applied.revert?.();
        agent.monitor.reset();
      },
      id,
    );
    return {
      fault_id: fault.id,
      ...applied.report,
      ...(sharedWith.length > 0 ? { shared_with: [...sharedWith] } : {}),
    };
  };

  const proxyFault = (
    type: ActionType,
    agentId: string,
    wire: Omit<FaultRequest, 'id' | 'lease_ms' | 'target_id'>,
    options: FaultOptions | undefined,
  ) => throughProxy(type, agentId, ctx.proxy(agentId), 'proxy', wire, options);

  /** through the MCP proxy the agent's session goes through (shared ones say so) */
  const mcpFault = (
    type: 'tool_fault' | 'tool_timeout',
    agentId: string,
    params: Record<string, unknown>,
    options: FaultOptions | undefined,
  ) => {
    const mcp = ctx.mcpProxy(agentId);
    return throughProxy(type, agentId, mcp?.proxy, 'mcp proxy', { type, params }, options, mcp?.sharedWith);
  };

  const runHook = async (type: 'memory_corrupt' | 'mcp_disconnect', agentId: string): Promise<FaultReport> => {
    refuseUnsupported(type);
    const agent = fleet.get(agentId, type);
    const hook = ctx.spec.hooks?.[type];
    if (!hook) throw new RuntimeError(`${type}: target ${ctx.spec.name} has no ${type} hook`, { code: 'unsupported' });
    const command = hook.replaceAll('{agent}', agentId);
    const result = await runCommand({
      command,
      cwd: ctx.baseDir,
      env: { ...ctx.env, ARENA_AGENT: agentId, ARENA_FAULT: type },
      timeoutMs: HOOK_TIMEOUT_MS,
    });
    if (result.code !== 0)
      throw new RuntimeError(
        `${type}: hook ${JSON.stringify(command)} for agent ${agentId} ${describeFailure(result, HOOK_TIMEOUT_MS)}`,
        { code: 'hook_failed' },
      );
    agent.monitor.reset();
    const output = result.stdout.trim().slice(-500);
    return { hook: command, ...(output ? { hook_output: output } : {}) };
  };

  const runtime: RuntimeProvider = {
    async listAgents() {
      const leader = await ctx.leaderId();
      return fleet.all().map((agent) => fleet.info(agent, leader));
    },

    async stopAgent(agentId) {
      const agent = fleet.get(agentId, 'kill_agent');
      const { pid, start } = fleet.resolve(agent);
      const tree = safeTree('kill_agent', agent, pid);
      const { sent, refused } = signalPids(tree, 'SIGKILL');
      if (!sent.includes(pid)) throw notSignalled('kill_agent', 'killed', agentId, pid, start, refused);
      // reported killed only once the kernel shows it gone (a zombie has exited) or its pid taken by another
      const deadline = ctx.clock.now() + KILL_VERIFY_MS;
      while (!isGone(pid, start) && ctx.clock.now() < deadline) await ctx.clock.sleep(5);
      if (!isGone(pid, start))
        throw new RuntimeError(
          `kill_agent: agent ${agentId}'s process ${pid} is still there ${KILL_VERIFY_MS}ms after SIGKILL (state ${readStat(pid)?.state ?? '?'}: an uninterruptible wait?)`,
          { code: 'kill_failed' },
        );
      agent.monitor.reset();
      if (agent.paused) {
        // a killed process is no longer paused; the watchdog must not SIGCONT a pid that may be reused
        await ctx.watchdog()?.tell({ op: 'resume', pids: agent.paused });
        agent.paused = undefined;
        book.forget('pause_agent', agentId);
      }
      return {
        killed_agent_id: agentId,
        pid,
        killed_pids: sent,
        ...(refused.length > 0 ? { not_killed: refused } : {}),
        signal: 'SIGKILL',
      };
    },

    async pauseAgent(agentId, options) {
      const agent = fleet.get(agentId, 'pause_agent');
      if (agent.paused)
        throw new RuntimeError(`pause_agent: agent ${agentId} is already paused`, { code: 'already_paused' });
      FaultBook.checkDuration('pause_agent', options);
      const watchdog = needWatchdog('pause_agent');
      const { pid, start } = fleet.resolve(agent);
      const pids: TrackedPid[] = safeTree('pause_agent', agent, pid).map((p) => ({
        pid: p,
        start: readStat(p)?.startTime ?? 0,
      }));
      const durationMs = options?.durationMs;
      // the watchdog knows before the first SIGSTOP: if we die (or freeze past the fault's end), it resumes them
      await watchdog.tell({
        op: 'pause',
        pids,
        ...(durationMs !== undefined ? { until: Date.now() + durationMs } : {}),
      });
      agent.paused = pids;
      const { sent, refused } = signalPids(
        pids.map((p) => p.pid),
        'SIGSTOP',
      );
      if (!sent.includes(pid)) {
        await resume(agent);
        throw notSignalled('pause_agent', 'paused', agentId, pid, start, refused);
      }
      agent.monitor.reset();
      // SIGSTOP is delivered asynchronously: answer once the kernel shows the process stopped
      const deadline = ctx.clock.now() + KILL_VERIFY_MS;
      while (!isStopped(pid) && isAlive(pid) && ctx.clock.now() < deadline) await ctx.clock.sleep(2);
      if (!isStopped(pid)) {
        await resume(agent);
        throw new RuntimeError(
          isGone(pid, start)
            ? `pause_agent: agent ${agentId}'s process ${pid} exited while it was being paused`
            : `pause_agent: agent ${agentId}'s process ${pid} did not stop within ${KILL_VERIFY_MS}ms of SIGSTOP (state ${readStat(pid)?.state ?? '?'})`,
          { code: 'pause_failed' },
        );
      }
      const fault = book.add('pause_agent', agentId, options, async () => void (await resume(agent)));
      return { fault_id: fault.id, paused_agent_id: agentId, pid, paused_pids: sent };
    },

    async resumeAgent(agentId) {
      const agent = fleet.get(agentId, 'resume_agent');
      if (!agent.paused) throw new RuntimeError(`resume_agent: agent ${agentId} is not paused`, { code: 'not_paused' });
      const pids = agent.paused.map((p) => p.pid);
      if ((await book.endAll('pause_agent', agentId)) === 0) await resume(agent);
      return { resumed_agent_id: agentId, resumed_pids: pids };
    },

    slowAgent(agentId, delayMs, options) {
      if (!Number.isFinite(delayMs) || delayMs <= 0)
        throw new RuntimeError(`slow_agent: delay must be a positive number of milliseconds, got ${delayMs}`, {
          code: 'invalid_delay',
        });
      return proxyFault(
        'slow_agent',
        agentId,
        { type: 'latency', params: { latency_ms: Math.round(delayMs) } },
        options,
      );
    },

    partitionNetwork(agentId, options) {
      return proxyFault('network_partition', agentId, { type: 'blackhole', params: {} }, options);
    },

    toolFault: (agentId, params, options) => mcpFault('tool_fault', agentId, params, options),

    toolTimeout: (agentId, options) => mcpFault('tool_timeout', agentId, {}, options),

    corruptMemory: (agentId) => runHook('memory_corrupt', agentId),

    async disconnectMcp(agentId) {
      if (ctx.spec.hooks?.mcp_disconnect) return runHook('mcp_disconnect', agentId);
      refuseUnsupported('mcp_disconnect');
      const agent = fleet.get(agentId, 'mcp_disconnect');
      const mcp = ctx.mcpProxy(agentId);
      if (!mcp)
        throw new RuntimeError(
          `mcp_disconnect: agent ${agentId} has no mcp proxy and there is no mcp_disconnect hook`,
          { code: 'unsupported' },
        );
      const before = mcp.proxy.sessions();
      if (before.open === 0)
        throw new RuntimeError(`mcp_disconnect: agent ${agentId} has no open MCP session through its proxy`, {
          code: 'mcp_not_connected',
        });
      const applied = await mcp.proxy.applyFault({
        id: book.nextId(),
        type: 'mcp_disconnect',
        target_id: agentId,
        params: {},
        lease_ms: 24 * 3600 * 1000,
      });
      // recovered once the agent opens a new session on its own
      agent.mcpSessionsAtDisconnect = mcp.proxy.sessions().total;
      return {
        ...applied.report,
        sessions_closed: before.open,
        ...(mcp.sharedWith.length > 0 ? { shared_with: mcp.sharedWith } : {}),
      };
    },

    async injectLlmFailure(agentId, errorType: LlmErrorType, options) {
      refuseUnsupported('llm_failure');
      const agent = fleet.get(agentId, 'llm_failure');
      const llm = ctx.llmProxy(agentId);
      if (!llm) throw new RuntimeError(`llm_failure: agent ${agentId} has no llm proxy`, { code: 'unsupported' });
      const durationMs = FaultBook.checkDuration('llm_failure', options);
      await book.endAll('llm_failure', agentId);
      const id = book.nextId();
      const applied = await llm.proxy.applyFault({
        id,
        type: 'llm_failure',
        target_id: agentId,
        params: { ...options?.params, error_type: errorType },
        lease_ms: 24 * 3600 * 1000,
        ...(durationMs !== undefined ? { duration_ms: durationMs } : {}),
      });
      const fault = book.add(
        'llm_failure',
        agentId,
        options,
        async () => {
          await applied.revert?.();
          agent.monitor.reset();
        },
        id,
      );
      // one proxy shared by several agents fails all their calls: say so rather than pretend to be precise
      return {
        fault_id: fault.id,
        error_type: errorType,
        ...applied.report,
        ...(llm.sharedWith.length > 0 ? { shared_with: llm.sharedWith } : {}),
      };
    },

    activeFaults: async () => book.list(),
    revertFault: (faultId) => book.end(faultId),
    revertAll: () => book.revertAll(),
  };
  return { runtime, book };
}
