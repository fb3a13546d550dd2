/** A run's --serve feed reads from its targets what its events do not carry: LLM tokens and workload counters. */
import { describe, expect, it } from 'vitest';
import * as promClient from 'prom-client';
import { createArenaMetrics } from '../../../../src/protocol/metrics.js';
import { createCallLedger } from '../../../../src/protocol/calls.js';
import { countRunTargets } from '../../../../src/server/metrics/run-targets.js';
import type { WorkloadCounters } from '../../../../src/arena/providers.js';

const target = (
  counts: () => WorkloadCounters | Promise<WorkloadCounters>,
  calls?: ReturnType<typeof createCallLedger>,
) => ({
  observer: { workload: async () => counts() } as never,
  ...(calls ? { calls } : {}),
});

describe('countRunTargets', () => {
  it('serves the workload counters and tokens of the target, and goes on from one target to the next without going down', async () => {
    const m = createArenaMetrics(promClient);
    const t = countRunTargets(m);
    m.beforeCollect(() => t.collect());
    const ledger = createCallLedger();
    ledger.record({
      kind: 'llm',
      started_ms: 1,
      ended_ms: 2,
      ok: true,
      faulted: false,
      model: 'm1',
      tokens: { input: 3, output: 2 },
    });
    let first: WorkloadCounters = { requests: 10, succeeded: 8, failed: 2 };
    t.watch(target(() => first, ledger));
    let text = await m.text();
    expect(text).toContain('arena_workload_requests_total{outcome="succeeded"} 8');
    expect(text).toContain('arena_workload_requests_total{outcome="failed"} 2');
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="m1"} 3');
    first = { requests: 12, succeeded: 10, failed: 2 };
    // the next scenario's target starts from 0: the total goes on from the first one's last reading
    t.watch(target(() => ({ requests: 1, succeeded: 1, failed: 0 })));
    text = await m.text();
    expect(text).toContain('arena_workload_requests_total{outcome="succeeded"} 9');
    expect(text).toContain('arena_llm_tokens_total{direction="input",model="m1"} 3');
  });

  it('keeps the last reading when the target cannot answer (stopped), and serves nothing before a target is built', async () => {
    const m = createArenaMetrics(promClient);
    const t = countRunTargets(m);
    m.beforeCollect(() => t.collect());
    expect(await m.text()).not.toContain('arena_workload_requests_total{');
    let isUp = true;
    t.watch(
      target(() => {
        if (!isUp) throw new Error('stopped');
        return { requests: 5, succeeded: 5, failed: 0 };
      }),
    );
    expect(await m.text()).toContain('arena_workload_requests_total{outcome="succeeded"} 5');
    isUp = false;
    expect(await m.text()).toContain('arena_workload_requests_total{outcome="succeeded"} 5');
  });
});
