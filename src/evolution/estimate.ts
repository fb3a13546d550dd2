/**
 * A cheap, static fitness estimate of a strategy (0–100), for the coordinator's
 * minimum-fitness policy where a survival run per proposal would be too slow:
 * which recovery mechanisms are on (weighted by how much of the score they
 * protect) and how fast their key timings are. The measured fitness used by
 * runEvolution is the survival score; this only screens patches.
 */
import type { Strategy } from '../runtime/strategy.js';

const WEIGHTS: Array<[keyof Strategy, number]> = [
  ['supervisor', 15],
  ['election', 11],
  ['failover', 11],
  ['dag', 11],
  ['integrity', 9],
  ['checkpoints', 7],
  ['llm', 7],
  ['tools', 7],
  ['mcp', 6],
];

/** 1 at or below `fast`, 0 at or above `slow`, log-linear between */
function speed(ms: number, fast: number, slow: number): number {
  if (ms <= fast) return 1;
  if (ms >= slow) return 0;
  return 1 - Math.log(ms / fast) / Math.log(slow / fast);
}

export function estimateStrategyFitness(s: Strategy): number {
  let score = 0;
  for (const [section, weight] of WEIGHTS) if ((s[section] as { enabled: boolean }).enabled) score += weight;
  // 16 points for speed, only counted for mechanisms that are on
  const timings: Array<[boolean, number]> = [
    [s.supervisor.enabled, speed(s.supervisor.backoff_ms, 20, 2000)],
    [s.election.enabled, speed(s.election.lease_ms, 100, 5000)],
    [s.failover.enabled, speed(s.failover.heartbeat_timeout_ms, 60, 5000)],
    [s.dag.enabled, speed(s.dag.restore_delay_ms, 10, 2000)],
  ];
  for (const [on, v] of timings) if (on) score += 4 * v;
  return Math.round(score * 10) / 10;
}
