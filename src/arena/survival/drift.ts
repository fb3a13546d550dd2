import { quantileSorted, mean } from 'simple-statistics';
import type { DriftStats } from '../report.js';

/** p50/p99/max/mean of actual − planned start times, in ms (0s when nothing ran). */
export function driftStats(drifts: ArrayLike<number>): DriftStats {
  if (drifts.length === 0) return { p50_ms: 0, p99_ms: 0, max_ms: 0, mean_ms: 0 };
  const sorted = Array.from(drifts).sort((a, b) => a - b);
  const r = (n: number) => Math.round(n * 100) / 100;
  return {
    p50_ms: r(quantileSorted(sorted, 0.5)),
    p99_ms: r(quantileSorted(sorted, 0.99)),
    max_ms: r(sorted[sorted.length - 1]!),
    mean_ms: r(mean(sorted)),
  };
}
