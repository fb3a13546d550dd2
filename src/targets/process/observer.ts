/**
 * What the arena measures on a process target: health from the agents'
 * probes (counted from the last fault on, see ProbeMonitor), availability from
 * the workload block (or, without one, every probe counted as a request), and
 * consistency from the invariant requests plus one check of its own: no
 * process of the fleet is left stopped.
 */
import type { ActionType } from '../../arena/action.js';
import type { AgentHealthAspect } from '../../arena/providers.js';
import type { AgentFleet, TrackedAgent } from './agents.js';
import type { HealthReport, HealthScope, InvariantCheck, TargetObserver, WorkloadCounters } from './contract.js';
import type { FaultBook } from './fault-book.js';
import { checkInvariants } from './invariants.js';
import { isStopped } from './proc.js';
import type { ProcessTargetSpec } from './spec.js';
import type { Workload } from './workload.js';
import { RuntimeError } from '../../shared/errors.js';

export interface ObserverContext {
  spec: ProcessTargetSpec;
  fleet: AgentFleet;
  book: FaultBook;
  workload(): Workload | undefined;
  leaderId(): Promise<string>;
  /** sessions through the agent's MCP proxy, when it has one */
  mcpSessions(agentId: string): { open: number; total: number } | undefined;
  /** one probe call through the agent's LLM proxy (undefined: it succeeded, else why not); undefined without a proxy */
  llmProbe(agentId: string): Promise<string | undefined> | undefined;
}

/**
 * Aspects judged by their own check alone: a kill or pause of the same agent does not hold up the
 * recovery of its LLM calls (a probe through its proxy) or its MCP sessions (a new one opened), so two
 * faults on one agent are timed independently. The process, memory and network aspects are the agent's
 * health probe (the network one after its partition ends): a restart there delays them, as it should.
 */
const OWN_CHECK_ASPECTS: ReadonlySet<AgentHealthAspect> = new Set(['llm', 'mcp']);

/** the fault kinds that keep an aspect of an agent unhealthy while they last */
const ASPECT_FAULTS: Partial<Record<AgentHealthAspect, readonly ActionType[]>> = {
  network: ['network_partition'],
  llm: ['llm_failure'],
  mcp: ['tool_timeout'],
};

export function createProcessObserver(ctx: ObserverContext): TargetObserver {
  const { fleet } = ctx;

  const agentProblems = (agent: TrackedAgent): string[] => {
    const id = agent.spec.id;
    if (agent.paused) return [`${id} is paused`];
    if (agent.pid !== undefined && fleet.isLastPidAlive(agent) && isStopped(agent.pid))
      return [`${id} (pid ${agent.pid}) is stopped`];
    const probe = agent.monitor.state();
    if (probe.healthy) return [];
    return [
      `${id}: ${probe.consecutive}/${agent.monitor.passes} consecutive probe passes${probe.lastProblem ? ` (${probe.lastProblem})` : ''}`,
    ];
  };

  const report = (problems: string[]): HealthReport => ({ healthy: problems.length === 0, problems });

  const orchestrators = () => fleet.all().filter((a) => a.spec.role === 'orchestrator' || a.spec.role === 'standby');

  return {
    async health(scope: HealthScope): Promise<HealthReport> {
      switch (scope.kind) {
        case 'agent': {
          const agent = fleet.get(scope.id);
          const during = ((scope.aspect ? ASPECT_FAULTS[scope.aspect] : undefined) ?? []).filter((kind) =>
            ctx.book.has(kind, scope.id),
          );
          const problems = during.map((kind) => `${scope.id}: ${kind} is active`);
          if (!scope.aspect || !OWN_CHECK_ASPECTS.has(scope.aspect)) problems.push(...agentProblems(agent));
          if (scope.aspect === 'mcp' && agent.mcpSessionsAtDisconnect !== undefined) {
            const sessions = ctx.mcpSessions(scope.id);
            if (sessions && sessions.total > agent.mcpSessionsAtDisconnect && sessions.open > 0)
              agent.mcpSessionsAtDisconnect = undefined;
            else problems.push(`${scope.id}: no new MCP session since the disconnect`);
          }
          // the LLM is back when a call through the agent's proxy succeeds; while the fault lasts the answer is known
          if (scope.aspect === 'llm' && during.length === 0) {
            const problem = await ctx.llmProbe(scope.id);
            if (problem) problems.push(`${scope.id}: ${problem}`);
          }
          return report(problems);
        }
        case 'leader': {
          let leader: string;
          try {
            leader = await ctx.leaderId();
          } catch (err) {
            return report([(err as Error).message]);
          }
          const agent = fleet.all().find((a) => a.spec.id === leader);
          if (!agent)
            return report([
              `the leader probe names ${JSON.stringify(leader)}, which is not an agent of ${ctx.spec.name}`,
            ]);
          return report(agentProblems(agent));
        }
        case 'orchestrator': {
          const all = orchestrators();
          if (all.length === 0) return report([`${ctx.spec.name} has no orchestrator agents`]);
          const problems = all.map(agentProblems);
          return problems.some((p) => p.length === 0) ? report([]) : report(problems.flat());
        }
        case 'dag':
          return report(['a process target has no workflow DAG']);
        case 'target':
          return report(fleet.all().flatMap(agentProblems));
      }
    },

    async workload(): Promise<WorkloadCounters> {
      const w = ctx.workload();
      if (w) return w.counters();
      // no workload block: the agents' probes are the steady state (DESIGN §5)
      const totals = { requests: 0, succeeded: 0, failed: 0 };
      for (const agent of fleet.all()) {
        const c = agent.monitor.counters();
        totals.requests += c.requests;
        totals.succeeded += c.succeeded;
        totals.failed += c.failed;
      }
      return totals;
    },

    // with a workload block, the requests sent in a window are counted, those in flight at its end waited for
    ...(ctx.spec.workload
      ? {
          openWorkloadWindow: () => {
            const w = ctx.workload();
            if (!w) throw new RuntimeError(`${ctx.spec.name}: its workload is not running`, { code: 'no_workload' });
            return w.openWindow();
          },
        }
      : {}),

    async checkInvariants(): Promise<InvariantCheck[]> {
      const checks = await checkInvariants(ctx.spec.invariants ?? []);
      const stopped = fleet.all().filter((a) => a.pid !== undefined && fleet.isLastPidAlive(a) && isStopped(a.pid));
      checks.push(
        stopped.length === 0
          ? { name: 'no-stopped-process', passed: true }
          : {
              name: 'no-stopped-process',
              passed: false,
              detail: stopped.map((a) => `${a.spec.id} (pid ${a.pid}) is stopped`).join('; '),
            },
      );
      return checks;
    },
  };
}
