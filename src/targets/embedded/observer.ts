/**
 * What the arena measures on the embedded target: health per scope, workload
 * counters, and the consistency invariants (DESIGN §5), all read from the
 * running runtime, never from what the injector believes it did.
 */
import type { InvariantCheck, TargetObserver } from '../../arena/providers.js';
import type { AgentRuntime } from '../../runtime/runtime.js';

/** how many of the most recent completed runs the output check looks at */
const RECENT_RUNS = 50;

export function createEmbeddedObserver(rt: AgentRuntime): TargetObserver {
  return {
    health: (scope) => rt.health(scope),
    workload() {
      const s = rt.stats();
      return { requests: s.requests, succeeded: s.succeeded, failed: s.failed };
    },
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
    ...(unreadable.length ? { detail: `${unreadable.length} acknowledged write(s) not readable: ${unreadable.slice(0, 5).join(', ')}` } : {}),
  });
  const damaged = [...rt.cluster.agents.values()].map((a) => [a.id, a.memory.verify()] as const).filter(([, v]) => !v.ok);
  checks.push({
    name: 'memory_integrity',
    passed: damaged.length === 0,
    ...(damaged.length ? { detail: damaged.map(([id, v]) => `${id}: ${v.problems.slice(0, 2).join('; ')}`).join(' | ') } : {}),
  });
  const completed = rt.recentRuns(500).filter((r) => r.status === 'completed').slice(-RECENT_RUNS);
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
    ...(duplicated.length ? { detail: `effects applied more than once for run(s) ${duplicated.slice(0, 10).join(', ')}` } : {}),
  });
  return checks;
}
