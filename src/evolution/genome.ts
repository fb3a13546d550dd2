/**
 * The search space of the evolution loop: the recovery fields of a Strategy
 * (every section but the workload, which is the load the strategy is measured
 * under, not part of the strategy), with bounds, plus mutation, crossover,
 * repair (keep cross-field rules) and distance.
 */
import type { Random } from '../shared/random.js';
import { WORKFLOW_RECOVERY, crossCheck, type Strategy } from '../runtime/strategy.js';

type Gene =
  | { path: [string, string]; kind: 'bool' }
  | { path: [string, string]; kind: 'ms'; min: number; max: number }
  | { path: [string, string]; kind: 'count'; min: number; max: number }
  | { path: [string, string]; kind: 'choice'; options: readonly string[] };

export const GENES: readonly Gene[] = [
  { path: ['supervisor', 'enabled'], kind: 'bool' },
  { path: ['supervisor', 'backoff_ms'], kind: 'ms', min: 5, max: 2000 },
  { path: ['supervisor', 'max_backoff_ms'], kind: 'ms', min: 10, max: 10_000 },
  { path: ['supervisor', 'max_restarts'], kind: 'count', min: 1, max: 50 },
  { path: ['supervisor', 'window_ms'], kind: 'ms', min: 1000, max: 60_000 },
  { path: ['election', 'enabled'], kind: 'bool' },
  { path: ['election', 'lease_ms'], kind: 'ms', min: 50, max: 5000 },
  { path: ['election', 'renew_interval_ms'], kind: 'ms', min: 10, max: 1000 },
  { path: ['failover', 'enabled'], kind: 'bool' },
  { path: ['failover', 'heartbeat_interval_ms'], kind: 'ms', min: 5, max: 1000 },
  { path: ['failover', 'heartbeat_timeout_ms'], kind: 'ms', min: 30, max: 5000 },
  { path: ['checkpoints', 'enabled'], kind: 'bool' },
  { path: ['checkpoints', 'interval_ms'], kind: 'ms', min: 20, max: 5000 },
  { path: ['integrity', 'enabled'], kind: 'bool' },
  { path: ['integrity', 'check_interval_ms'], kind: 'ms', min: 10, max: 2000 },
  { path: ['llm', 'enabled'], kind: 'bool' },
  { path: ['llm', 'retries'], kind: 'count', min: 0, max: 6 },
  { path: ['llm', 'backoff_ms'], kind: 'ms', min: 1, max: 1000 },
  { path: ['llm', 'fallback'], kind: 'bool' },
  { path: ['tools', 'enabled'], kind: 'bool' },
  { path: ['tools', 'timeout_ms'], kind: 'ms', min: 20, max: 5000 },
  { path: ['tools', 'retries'], kind: 'count', min: 0, max: 5 },
  { path: ['mcp', 'enabled'], kind: 'bool' },
  { path: ['mcp', 'backoff_ms'], kind: 'ms', min: 5, max: 2000 },
  { path: ['mcp', 'max_backoff_ms'], kind: 'ms', min: 10, max: 10_000 },
  { path: ['dag', 'enabled'], kind: 'bool' },
  { path: ['dag', 'restore_delay_ms'], kind: 'ms', min: 5, max: 2000 },
  { path: ['dag', 'recovery'], kind: 'choice', options: WORKFLOW_RECOVERY },
  { path: ['dag', 'step_retries'], kind: 'count', min: 0, max: 5 },
];

function get(s: Strategy, [section, key]: [string, string]): unknown {
  return (s as unknown as Record<string, Record<string, unknown>>)[section]![key];
}
function set(s: Strategy, [section, key]: [string, string], value: unknown): void {
  (s as unknown as Record<string, Record<string, unknown>>)[section]![key] = value;
}

function mutateGene(gene: Gene, value: unknown, random: Random): unknown {
  switch (gene.kind) {
    case 'bool':
      return !value;
    case 'ms': {
      // log-uniform factor in [1/2, 2]: halving and doubling equally likely
      const factor = 2 ** (random.next() * 2 - 1);
      return clamp(Math.round((value as number) * factor), gene.min, gene.max);
    }
    case 'count':
      return clamp((value as number) + (random.next() < 0.5 ? -1 : 1), gene.min, gene.max);
    case 'choice':
      return random.pick(gene.options.filter((o) => o !== value));
  }
}

/** a copy of `s` where each gene changes with probability `rate` (at least one changes) */
export function mutate(s: Strategy, random: Random, rate: number): Strategy {
  const out = structuredClone(s);
  let changed = false;
  for (const gene of GENES) {
    if (random.next() < rate) {
      set(out, gene.path, mutateGene(gene, get(out, gene.path), random));
      changed = true;
    }
  }
  if (!changed) {
    const gene = random.pick(GENES);
    set(out, gene.path, mutateGene(gene, get(out, gene.path), random));
  }
  return repair(out);
}

/** uniform crossover: each gene from either parent */
export function crossover(a: Strategy, b: Strategy, random: Random): Strategy {
  const out = structuredClone(a);
  for (const gene of GENES) if (random.next() < 0.5) set(out, gene.path, get(b, gene.path));
  return repair(out);
}

/** restores the cross-field rules a mutation may have broken (renew < lease, interval < timeout, max ≥ base) */
export function repair(s: Strategy): Strategy {
  if (s.election.renew_interval_ms >= s.election.lease_ms)
    s.election.renew_interval_ms = Math.max(1, Math.floor(s.election.lease_ms / 3));
  if (s.failover.heartbeat_interval_ms >= s.failover.heartbeat_timeout_ms)
    s.failover.heartbeat_interval_ms = Math.max(1, Math.floor(s.failover.heartbeat_timeout_ms / 3));
  if (s.supervisor.max_backoff_ms < s.supervisor.backoff_ms) s.supervisor.max_backoff_ms = s.supervisor.backoff_ms;
  if (s.mcp.max_backoff_ms < s.mcp.backoff_ms) s.mcp.max_backoff_ms = s.mcp.backoff_ms;
  const problems = crossCheck(s);
  if (problems.length > 0) throw new Error(`repair left an invalid strategy: ${problems.join('; ')}`);
  return s;
}

/** 0 (identical) … 1 (every gene differs maximally): mean per-gene normalised distance */
export function distance(a: Strategy, b: Strategy): number {
  let total = 0;
  for (const gene of GENES) {
    const x = get(a, gene.path);
    const y = get(b, gene.path);
    if (gene.kind === 'ms')
      total += Math.abs(Math.log(x as number) - Math.log(y as number)) / Math.log(gene.max / gene.min);
    else if (gene.kind === 'count') total += Math.abs((x as number) - (y as number)) / Math.max(1, gene.max - gene.min);
    else total += x === y ? 0 : 1;
  }
  return total / GENES.length;
}

/** mean pairwise distance of a population (0 when everyone is the same) */
export function diversity(population: readonly Strategy[]): number {
  let sum = 0;
  let pairs = 0;
  for (let i = 0; i < population.length; i++) {
    for (let j = i + 1; j < population.length; j++) {
      sum += distance(population[i]!, population[j]!);
      pairs++;
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}

/** a stable key: equal strategies share a cached fitness */
export function genomeKey(s: Strategy): string {
  return GENES.map((g) => String(get(s, g.path))).join('|');
}

function clamp(v: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, v));
}
