/**
 * How often the pass^k interval covers the true p^k: simulated tasks with a per-trial success rate p
 * drawn uniformly from (0, 1), n trials each. The docs' figure comes from `test/bench/trials-coverage.ts`
 * (2,000 tasks); a unit test runs a smaller one as a safety net. The random source is injected.
 */
import type { Random } from '../../shared/random.js';
import { passKInterval } from './passk.js';

export interface CoverageResult {
  tasks: number;
  n: number;
  /** k → share of tasks whose interval held the true p^k */
  coverage: Record<string, number>;
}

export function simulateCoverage(random: Random, tasks: number, n: number, ks: readonly number[]): CoverageResult {
  const hits = new Map<number, number>(ks.map((k) => [k, 0]));
  for (let t = 0; t < tasks; t++) {
    const p = random.next();
    let c = 0;
    for (let i = 0; i < n; i++) if (random.next() < p) c++;
    for (const k of ks) {
      const bounds = passKInterval(n, c, k);
      if (bounds && bounds[0] <= p ** k && p ** k <= bounds[1]) hits.set(k, hits.get(k)! + 1);
    }
  }
  const coverage: Record<string, number> = {};
  for (const k of ks) if (k <= n) coverage[String(k)] = hits.get(k)! / tasks;
  return { tasks, n, coverage };
}
