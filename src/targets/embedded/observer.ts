/**
 * What the arena measures on the embedded target: health per scope, workload
 * counters, and the consistency invariants (DESIGN §5), all read from the
 * running runtime, never from what the injector believes it did.
 *
 * An agent scope with an aspect answers for that part of the agent only, so a
 * fault is judged by what it damaged. The LLM aspect is answered by real probe
 * calls through the agent's LLM client: it is healthy once a probe started
 * after the latest llm_failure has succeeded (through the fallback provider
 * while the failure lasts, or the primary once it ended).
 */
import type { AgentHealthAspect, HealthReport, InvariantCheck, TargetObserver } from '../../arena/providers.js';
import { errorMessage } from '../../shared/errors.js';
import { createWorkloadTally } from '../../arena/workload-window.js';
import type { Agent } from '../../runtime/agent.js';
import type { AgentRuntime } from '../../runtime/runtime.js';

/** how many of the most recent completed runs the output check looks at */
const RECENT_RUNS = 50;

export interface EmbeddedObserverOptions {
  /** llm_failure faults applied to an agent so far; without it every successful probe counts */
  llmInjections?: (agentId: string) => number;
}

interface LlmProbeState {
  /** the injection count a probe in flight started under */
  inFlight?: number;
  /** the latest injection count under which a probe succeeded */
  succeededAt?: number;
  lastError?: string;
}

export function createEmbeddedObserver(rt: AgentRuntime, options: EmbeddedObserverOptions = {}): TargetObserver {
  const injections = options.llmInjections ?? (() => 0);
  const probes = new Map<string, LlmProbeState>();
  // every run the workload sends is counted in the windows open when it was sent, once it ends
  const tally = createWorkloadTally();
  const ends = new Map<number, (ok: boolean) => void>();
  rt.ledger.watch({
    started: (run) => ends.set(run, tally.started()),
    finished(record) {
      ends.get(record.run)?.(record.ok);
      ends.delete(record.run);
    },
  });

  const llmHealth = (agent: Agent): string[] => {
    const epoch = injections(agent.id);
    let state = probes.get(agent.id);
    if (!state) probes.set(agent.id, (state = {}));
    if (state.succeededAt === epoch) return [];
    if (state.inFlight !== epoch) {
      const probe = state;
      probe.inFlight = epoch;
      // a real call, retries and fallback included, as the agent's own calls make it
      agent.subsystems.llm
        .complete({ messages: [{ role: 'user', content: 'echo: health probe' }], maxTokens: 4 })
        .then(
          () => {
            probe.succeededAt = Math.max(probe.succeededAt ?? -1, epoch);
          },
          (err: unknown) => {
            probe.lastError = errorMessage(err);
          },
        )
        .finally(() => {
          if (probe.inFlight === epoch) probe.inFlight = undefined;
        });
    }
    return [
      `${agent.id} LLM calls have not succeeded since the fault${state.lastError ? ` (last probe: ${state.lastError})` : ''}`,
    ];
  };

  const aspectProblems = (agent: Agent, aspect: AgentHealthAspect): string[] => {
    switch (aspect) {
      case 'process':
        return agent.state === 'running' ? [] : [`${agent.id} is ${agent.state}`];
      case 'memory': {
        const memory = agent.memory.verify();
        return memory.ok ? [] : [`${agent.id} memory fails its integrity check (${memory.problems.length} problem(s))`];
      }
      case 'mcp':
        return agent.subsystems.mcp.isConnected() ? [] : [`${agent.id} MCP session is disconnected`];
      case 'llm':
        return llmHealth(agent);
      case 'tools':
        return agent.subsystems.tools.isHanging ? [`${agent.id} tool calls hang until their timeout`] : [];
      case 'network':
        return agent.partitioned ? [`${agent.id} is partitioned from the network`] : [];
    }
  };

  return {
    async health(scope): Promise<HealthReport> {
      if (scope.kind === 'agent' && scope.aspect !== undefined) {
        const problems = aspectProblems(rt.agent(scope.id), scope.aspect);
        return { healthy: problems.length === 0, problems };
      }
      return rt.health(scope);
    },
    async workload() {
      const s = rt.stats();
      return { requests: s.requests, succeeded: s.succeeded, failed: s.failed, in_flight: s.in_flight };
    },
    openWorkloadWindow: () => tally.open(),
    async checkInvariants() {
      return checkInvariants(rt);
    },
  };
}

export function checkInvariants(rt: AgentRuntime): InvariantCheck[] {
  const checks: InvariantCheck[] = [];
  const unreadable = rt.ledger.unreadableAcks(rt.cluster.agents);
  checks.push({
    name: 'acknowledged_writes_readable',
    passed: unreadable.length === 0,
    ...(unreadable.length
      ? { detail: `${unreadable.length} acknowledged write(s) not readable: ${unreadable.slice(0, 5).join(', ')}` }
      : {}),
  });
  const damaged = [...rt.cluster.agents.values()]
    .map((a) => [a.id, a.memory.verify()] as const)
    .filter(([, v]) => !v.ok);
  checks.push({
    name: 'memory_integrity',
    passed: damaged.length === 0,
    ...(damaged.length
      ? { detail: damaged.map(([id, v]) => `${id}: ${v.problems.slice(0, 2).join('; ')}`).join(' | ') }
      : {}),
  });
  const completed = rt
    .recentRuns(500)
    .filter((r) => r.status === 'completed')
    .slice(-RECENT_RUNS);
  const wrong = completed.filter((r) => r.mismatch);
  checks.push({
    name: 'workflow_outputs_as_expected',
    passed: wrong.length === 0,
    detail: wrong.length
      ? `${wrong.length} of the last ${completed.length} completed runs gave a wrong output (first: run ${wrong[0]!.run}: ${wrong[0]!.error})`
      : `${completed.length} recent completed run(s) checked`,
  });
  const duplicated = rt.ledger.duplicatedEffects();
  checks.push({
    name: 'no_duplicated_effects',
    passed: duplicated.length === 0,
    ...(duplicated.length
      ? { detail: `effects applied more than once for run(s) ${duplicated.slice(0, 10).join(', ')}` }
      : {}),
  });
  return checks;
}
