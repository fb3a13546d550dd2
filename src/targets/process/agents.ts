/**
 * The target's agents as the arena sees them: each with its health monitor,
 * the pid it had when last looked at, and the restarts seen so far (a pid that
 * changed: the supervisor brought up a new process). A tracker re-resolves
 * every pid on an interval so that restarts between faults are counted too.
 */
import type { AgentInfo, AgentStatus } from '../../arena/providers.js';
import { systemClock, type Clock, type TimerHandle } from '../../shared/clock.js';
import { NotFoundError, RuntimeError } from '../../shared/errors.js';
import { resolvePid } from './pid.js';
import { isAlive, isStopped } from './proc.js';
import { readStat } from '../../shared/proc.js';
import { ProbeMonitor } from './probes.js';
import type { AgentSpec } from './spec.js';
import type { TrackedPid } from './watchdog.js';

export interface TrackedAgent {
  readonly spec: AgentSpec;
  readonly monitor: ProbeMonitor;
  pid?: number;
  pidStart?: number;
  restarts: number;
  /** the pids this arena stopped, exactly as they were stopped (resumed by these, not by a fresh lookup) */
  paused?: TrackedPid[];
  /** pid specs by port: the listening sockets the pid held when found (src/targets/process/pid.ts) */
  readonly sockets: { inodes?: ReadonlySet<string> };
  /** after an mcp_disconnect through the proxy: its session count then; recovered once a new session opens */
  mcpSessionsAtDisconnect?: number;
}

export interface FleetOptions {
  baseDir: string;
  env: Record<string, string>;
  clock?: Clock;
  /** pids never taken for an agent (the arena, its watchdog) */
  exclude: () => ReadonlySet<number>;
  trackIntervalMs?: number;
}

export class AgentFleet {
  private readonly agents = new Map<string, TrackedAgent>();
  private readonly clock: Clock;
  private timer: TimerHandle | undefined;
  private tracking = false;

  constructor(
    specs: readonly AgentSpec[],
    private readonly options: FleetOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    for (const spec of specs) {
      this.agents.set(spec.id, {
        spec,
        monitor: new ProbeMonitor(
          spec.health,
          { cwd: options.baseDir, env: { ...options.env, ARENA_AGENT: spec.id } },
          this.clock,
        ),
        restarts: 0,
        sockets: {},
      });
    }
  }

  ids(): string[] {
    return [...this.agents.keys()];
  }

  all(): TrackedAgent[] {
    return [...this.agents.values()];
  }

  get(id: string, fault?: string): TrackedAgent {
    const agent = this.agents.get(id);
    if (!agent)
      throw new NotFoundError(
        `${fault ? `${fault}: ` : ''}no agent ${JSON.stringify(id)} in this target (agents: ${this.ids().join(', ')})`,
        { code: 'agent_not_found' },
      );
    return agent;
  }

  /** the agent's pid now; throws RuntimeError naming the agent and the cause */
  resolve(agent: TrackedAgent): TrackedPid {
    const pid = resolvePid(agent.spec.pid, {
      agentId: agent.spec.id,
      baseDir: this.options.baseDir,
      exclude: this.options.exclude(),
      lastPid: agent.pid,
      sockets: agent.sockets,
    });
    const start = readStat(pid)?.startTime ?? 0;
    if (agent.pid !== undefined && (agent.pid !== pid || agent.pidStart !== start)) agent.restarts++;
    agent.pid = pid;
    agent.pidStart = start;
    return { pid, start };
  }

  /** resolve, or undefined when the agent has no live process right now */
  tryResolve(agent: TrackedAgent): TrackedPid | undefined {
    try {
      return this.resolve(agent);
    } catch (err) {
      if (err instanceof RuntimeError) return undefined;
      throw err;
    }
  }

  status(agent: TrackedAgent): AgentStatus {
    if (agent.paused) return 'paused';
    const found = this.tryResolve(agent);
    if (!found) return 'stopped';
    if (isStopped(found.pid)) return 'paused';
    return agent.monitor.state().healthy ? 'running' : 'restarting';
  }

  info(agent: TrackedAgent, leaderId: string | undefined): AgentInfo {
    return {
      id: agent.spec.id,
      role: leaderId === agent.spec.id ? 'leader' : agent.spec.role,
      status: this.status(agent),
      restarts: agent.restarts,
    };
  }

  /** start the probes and the pid tracker */
  startTracking(): void {
    if (this.tracking) return;
    this.tracking = true;
    for (const agent of this.agents.values()) agent.monitor.start();
    const every = this.options.trackIntervalMs ?? 250;
    const tick = () => {
      if (!this.tracking) return;
      for (const agent of this.agents.values()) if (!agent.paused) this.tryResolve(agent);
      this.timer = this.clock.setTimer(every, tick);
    };
    tick();
  }

  stopTracking(): void {
    this.tracking = false;
    this.timer?.cancel();
    for (const agent of this.agents.values()) agent.monitor.stop();
  }

  /** is the last known pid still that process? */
  isLastPidAlive(agent: TrackedAgent): boolean {
    return agent.pid !== undefined && isAlive(agent.pid) && readStat(agent.pid)?.startTime === agent.pidStart;
  }
}
