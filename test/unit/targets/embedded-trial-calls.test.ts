/**
 * Trials on the embedded target read its agents' tool calls from the call ledger, as an MCP proxy in
 * front of the tools would record them (DESIGN §14): tool_calls per trial, a lookup the agent really
 * sends twice with the same arguments (its retry after a timed-out attempt) counted as a duplicate side
 * effect when the target names lookup a side effect, and none when the agent sends it once.
 */
import { describe, expect, it } from 'vitest';
import { checkScenarioText } from '../../../src/arena/scenario/load.js';
import { runTrialsOnTarget } from '../../../src/arena/trials/run.js';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';

// every worker's tools hang for a whole faulted block: each lookup times out and the agent retries it
const HUNG_TOOLS = checkScenarioText(
  [
    'name: hung-tools',
    'actions:',
    ...['agent-1', 'agent-2', 'agent-3'].map(
      (id) => `  - action: { type: tool_timeout, target_id: ${id}, metadata: { duration: 30s } }`,
    ),
  ].join('\n'),
).scenario!;

describe('embedded target: tool calls in the trials ledger', () => {
  it('counts tool calls per trial and the retried lookups as duplicate side effects', { timeout: 60_000 }, async () => {
    const target = createEmbeddedTarget({ seed: 4, workload: false, sideEffects: ['lookup'] });
    const report = await runTrialsOnTarget(target, { n: 2, ks: [1], seed: 4, scenario: HUNG_TOOLS });
    const task = report.trials.tasks[0]!;
    // clean: one lookup per run, each succeeds, the answer carries it
    expect(task.clean.successes).toBe(2);
    expect(task.behaviour.tool_calls.clean).toBe(1);
    expect(task.behaviour.false_success).toBe(0);
    // faulted: every lookup hangs, the agent sends it again with the same arguments, and the run fails
    expect(task.faulted!.successes).toBe(0);
    expect(task.behaviour.tool_calls.faulted).toBeGreaterThanOrEqual(2);
    expect(task.behaviour.duplicate_side_effects).toBeGreaterThanOrEqual(2);
    expect(report.trials.unattributed_calls).toBe(0);
  });

  it('no side effect named, or none repeated: no duplicate is counted', { timeout: 60_000 }, async () => {
    const plain = createEmbeddedTarget({ seed: 4, workload: false });
    const report = await runTrialsOnTarget(plain, { n: 2, ks: [1], seed: 4, scenario: HUNG_TOOLS });
    expect(report.trials.tasks[0]!.behaviour.duplicate_side_effects).toBe(0);
    expect(report.trials.tasks[0]!.behaviour.tool_calls.faulted).toBeGreaterThanOrEqual(2);
    // clean trials with lookup a side effect: each run looks up once, nothing is a duplicate
    const named = createEmbeddedTarget({ seed: 4, workload: false, sideEffects: ['lookup'] });
    const clean = await runTrialsOnTarget(named, { n: 3, ks: [1], seed: 4 });
    expect(clean.trials.tasks[0]!.behaviour.tool_calls.clean).toBe(1);
    expect(clean.trials.tasks[0]!.behaviour.duplicate_side_effects).toBeNull();
    expect(clean.trials.tasks[0]!.cost.tokens.clean).toBeGreaterThan(0);
  });

  it('every call of a trial is its own, however fast trials follow one another', { timeout: 60_000 }, async () => {
    // a warm runtime finishes a trial within a millisecond: the wall-clock windows of two back-to-back trials
    // touch, and a call in the shared millisecond could not be attributed by time alone
    for (let i = 0; i < 4; i++) {
      const target = createEmbeddedTarget({ seed: 4, workload: false });
      const report = await runTrialsOnTarget(target, { n: 6, ks: [1], seed: 4 });
      const behaviour = report.trials.tasks[0]!.behaviour;
      // plan and answer each ask the model once; the tool step looks up once
      expect({ llm: behaviour.llm_calls.clean, tool: behaviour.tool_calls.clean }).toEqual({ llm: 2, tool: 1 });
      expect(report.trials.unattributed_calls).toBe(0);
    }
  });
});

describe('embedded target: --intensity', () => {
  it('is refused before any trial: its simulated LLM and tools take no per-call probability', async () => {
    const scenario = checkScenarioText(
      [
        'name: quiet',
        'actions:',
        '  - action: { type: llm_failure, target_id: agent-1, metadata: { error_type: empty, duration: 1s } }',
        '  - action: { type: tool_fault, target_id: agent-2, metadata: { mode: corrupt, tool: lookup } }',
      ].join('\n'),
    ).scenario!;
    const target = createEmbeddedTarget({ seed: 4, workload: false });
    const refused = await runTrialsOnTarget(target, { n: 2, ks: [1], seed: 4, scenario, intensities: [0.5] }).catch(
      (err: unknown) => err,
    );
    expect(refused).toMatchObject({ code: 'unsupported_fault', exitCode: 2 });
    expect(String((refused as Error).message)).toContain('at --intensity 0.5');
    expect(String((refused as Error).message)).toContain('it takes no probability');
    // no trial ran: the target's ledger holds no call
    expect(target.calls!.calls().records).toEqual([]);
    // the same scenario without --intensity applies
    const report = await runTrialsOnTarget(createEmbeddedTarget({ seed: 4, workload: false }), {
      n: 1,
      ks: [1],
      seed: 4,
      scenario,
    });
    expect(report.trials.faults.failed).toBe(0);
  });
});
