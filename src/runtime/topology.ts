/**
 * Which agents the runtime runs. The default is the documented one (DESIGN §3):
 * workers agent-1..3 (one elected leader), orchestrator-1 (active) and
 * orchestrator-2 (standby), so scenarios can name them.
 */
import { UsageError } from '../shared/errors.js';

export interface Topology {
  /** number of worker agents, named agent-1..N */
  workers: number;
  /** number of orchestrators, named orchestrator-1..M; the first starts active, the rest standby */
  orchestrators: number;
}

export const DEFAULT_TOPOLOGY: Topology = Object.freeze({ workers: 3, orchestrators: 2 });

export type AgentKind = 'worker' | 'orchestrator';

export interface AgentSpec {
  id: string;
  kind: AgentKind;
}

export function parseTopology(input: Partial<Topology> | undefined): Topology {
  const t = { ...DEFAULT_TOPOLOGY, ...(input ?? {}) };
  const problems: string[] = [];
  if (!Number.isInteger(t.workers) || t.workers < 1 || t.workers > 64)
    problems.push(`topology.workers: must be an integer from 1 to 64, got ${JSON.stringify(t.workers)}`);
  if (!Number.isInteger(t.orchestrators) || t.orchestrators < 1 || t.orchestrators > 8) {
    problems.push(`topology.orchestrators: must be an integer from 1 to 8, got ${JSON.stringify(t.orchestrators)}`);
  }
  if (problems.length > 0) throw new UsageError(problems.join('; '), { code: 'invalid_topology', details: problems });
  return t;
}

export function agentSpecs(topology: Topology): AgentSpec[] {
  const specs: AgentSpec[] = [];
  for (let i = 1; i <= topology.workers; i++) specs.push({ id: `agent-${i}`, kind: 'worker' });
  for (let i = 1; i <= topology.orchestrators; i++) specs.push({ id: `orchestrator-${i}`, kind: 'orchestrator' });
  return specs;
}
