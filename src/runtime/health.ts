/**
 * Health as the arena polls it: per agent, for the leader, the active
 * orchestrator, the DAG, and the whole runtime. Each problem is a sentence
 * that says what is wrong ("agent-2 is stopped", "node plan missing").
 */
import type { Agent } from './agent.js';
import { getAgent, isAlive, isReachable, type Cluster } from './cluster.js';
import type { LiveDag } from './dag.js';
import { currentLeader, leaderServing } from './election.js';

export type RuntimeHealthScope =
  | { kind: 'agent'; id: string }
  | { kind: 'leader' }
  | { kind: 'orchestrator' }
  | { kind: 'dag' }
  | { kind: 'target' };

export interface RuntimeHealth {
  healthy: boolean;
  problems: string[];
}

export function runtimeHealth(
  cluster: Cluster,
  dag: LiveDag,
  scope: RuntimeHealthScope = { kind: 'target' },
): RuntimeHealth {
  let problems: string[];
  switch (scope.kind) {
    case 'agent':
      problems = agentProblems(getAgent(cluster, scope.id));
      break;
    case 'leader': {
      const leader = currentLeader(cluster);
      problems = leaderServing(cluster)
        ? []
        : [
            leader
              ? `leader ${leader.id} is ${leader.state === 'running' ? 'without a valid lease or unreachable' : leader.state}`
              : 'no leader elected',
          ];
      break;
    }
    case 'orchestrator': {
      const active = cluster.activeOrchestratorId ? cluster.agents.get(cluster.activeOrchestratorId) : undefined;
      problems =
        active && isReachable(active) && isAlive(cluster, active)
          ? []
          : [
              active
                ? `active orchestrator ${active.id} is ${active.state === 'running' ? 'unreachable' : active.state}`
                : 'no active orchestrator',
            ];
      break;
    }
    case 'dag':
      problems = dag.damage();
      break;
    case 'target':
      problems = [
        ...[...cluster.agents.values()].flatMap(agentProblems),
        ...runtimeHealth(cluster, dag, { kind: 'leader' }).problems,
        ...runtimeHealth(cluster, dag, { kind: 'orchestrator' }).problems,
        ...dag.damage().map((d) => `DAG ${d}`),
      ];
      break;
  }
  return { healthy: problems.length === 0, problems };
}

function agentProblems(agent: Agent): string[] {
  const problems: string[] = [];
  if (agent.state !== 'running') problems.push(`${agent.id} is ${agent.state}`);
  if (agent.partitioned) problems.push(`${agent.id} is partitioned from the network`);
  if (agent.slowMs > 0) problems.push(`${agent.id} is slowed by ${agent.slowMs}ms per task`);
  const memory = agent.memory.verify();
  if (!memory.ok) problems.push(`${agent.id} memory fails its integrity check (${memory.problems.length} problem(s))`);
  const { tools, llm, mcp } = agent.subsystems;
  if (tools.isHanging) problems.push(`${agent.id} tool calls hang until their timeout`);
  // with retries exhausted the fallback provider answers: the agent still serves
  if (llm.failureActive && !llm.config().fallbackEnabled)
    problems.push(`${agent.id} LLM calls fail (${llm.failureType})`);
  if (agent.state === 'running' && !mcp.isConnected()) problems.push(`${agent.id} MCP session is disconnected`);
  return problems;
}
