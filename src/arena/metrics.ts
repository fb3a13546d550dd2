/** Per-fault-type counters of what the arena attempted: totals, outcomes and how long injections took. */
import type { Result } from './action.js';

export interface TypeMetrics {
  total: number;
  successes: number;
  failures: number;
  duration_ms: { total: number; mean: number; min: number; max: number };
}

export interface MetricsSnapshot {
  total: number;
  successes: number;
  failures: number;
  by_type: Record<string, TypeMetrics>;
}

export class MetricsCollector {
  private byType = new Map<string, TypeMetrics>();

  recordActionResult(result: Result): void {
    const type = result.action.type;
    let m = this.byType.get(type);
    if (!m) {
      m = { total: 0, successes: 0, failures: 0, duration_ms: { total: 0, mean: 0, min: Infinity, max: 0 } };
      this.byType.set(type, m);
    }
    m.total += 1;
    if (result.success) m.successes += 1;
    else m.failures += 1;
    const d = Math.max(0, result.duration_ms);
    m.duration_ms.total += d;
    m.duration_ms.mean = m.duration_ms.total / m.total;
    m.duration_ms.min = Math.min(m.duration_ms.min, d);
    m.duration_ms.max = Math.max(m.duration_ms.max, d);
  }

  snapshot(): MetricsSnapshot {
    const by_type: Record<string, TypeMetrics> = {};
    let total = 0;
    let successes = 0;
    let failures = 0;
    for (const [type, m] of [...this.byType].sort(([a], [b]) => a.localeCompare(b))) {
      by_type[type] = { ...m, duration_ms: { ...m.duration_ms } };
      total += m.total;
      successes += m.successes;
      failures += m.failures;
    }
    return { total, successes, failures, by_type };
  }

  reset(): void {
    this.byType.clear();
  }
}
