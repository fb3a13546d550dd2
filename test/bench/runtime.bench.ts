/**
 * Embedded runtime benchmarks (`npx vitest bench --run test/bench/runtime.bench.ts`).
 * vitest prints each group's items relative to the fastest (the baseline):
 * - workload: one steady-state run through the runtime (orchestrator, leader,
 *   worker task loops, MCP, LLM, tools, memory) vs the workflow engine alone
 *   with no-op steps; ops/s of the first is requests/s served one at a time.
 * - fault injection: one fault-injection call vs a no-op async call.
 * After the benches, sustained-throughput lines are printed: runs/s served by
 * the paced workload at several offered rates with no faults (past saturation
 * the event loop lags, heartbeats arrive late and the failure detector starts
 * to suspect live workers, so runs fail: that is where the runtime tops out).
 */
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { createEmbeddedTarget, getEmbeddedRuntime } from '../../src/targets/embedded/index.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { STEADY_STATE_WORKFLOW } from '../../src/runtime/steady-state.js';
import { AgentRegistry, executeWorkflow } from '../../src/workflow/index.js';
import type { Target } from '../../src/arena/providers.js';

const noopRegistry = new AgentRegistry();
for (const type of ['fetch', 'plan', 'tool', 'recall', 'answer'])
  noopRegistry.register(type, () => ({ execute: async () => type }));

const rt = createRuntime({ strategy: { workload: { rate: 0 } } });
let target: Target;

beforeAll(async () => {
  rt.start();
  await Promise.all([...rt.cluster.agents.values()].map((a) => a.subsystems.ready));
  target = createEmbeddedTarget({ workloadRate: 0 });
  await target.start();
});

afterAll(async () => {
  await rt.stop();
  await target.stop();
  // sustained throughput: the paced workload at a few offered rates, one second each
  for (const rate of [100, 200, 400]) {
    const loaded = createEmbeddedTarget({ workloadRate: rate });
    await loaded.start();
    const before = await loaded.observer.workload();
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = await loaded.observer.workload();
    const seconds = (performance.now() - start) / 1000;
    await loaded.stop();
    const served = (after.succeeded - before.succeeded) / seconds;
    const failed = after.failed - before.failed;
    process.stdout.write(
      `sustained workload, no faults, offered ${rate} runs/s: ${served.toFixed(0)} runs/s served, ${failed} failed (ratio served/offered ${(served / rate).toFixed(2)})\n`,
    );
  }
});

/** lets timers (heartbeats, leases) run between iterations, as they would between requests of a real server */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('workload', () => {
  bench('workflow engine alone, no-op steps (baseline)', async () => {
    await executeWorkflow(STEADY_STATE_WORKFLOW, { registry: noopRegistry, input: {} });
    await yieldToLoop();
  });
  bench('one steady-state run through the runtime', async () => {
    if (!(await rt.submitRun())) throw new Error(`run failed: ${rt.recentRuns(1)[0]?.error}`);
    await yieldToLoop();
  });
});

describe('fault injection call', () => {
  bench('no-op async call (baseline)', async () => {
    await Promise.resolve();
  });
  bench('slow_agent (replaces the previous one)', async () => {
    await target.runtime.slowAgent('agent-2', 1);
  });
  bench('network_partition + heal', async () => {
    await target.runtime.partitionNetwork('agent-3');
    getEmbeddedRuntime(target)!.agent('agent-3').partitioned = false;
  });
});
