import { describe, expect, it } from 'vitest';
import { checkScenarioText } from '../../../../src/arena/scenario/load.js';
import { passK } from '../../../../src/arena/trials/passk.js';
import { runTrialsOnTarget } from '../../../../src/arena/trials/run.js';
import { standInTarget } from './stand-in.js';

const SCENARIO = checkScenarioText(
  [
    'name: flaky-llm',
    'actions:',
    '  - action: { type: llm_failure, target_id: agent, metadata: { error_type: rate_limit, duration: 1s } }',
  ].join('\n'),
).scenario!;

/** C(c,k)/C(n,k) by counting k-subsets of n items with c marked */
function countAllSuccess(n: number, c: number, k: number): number {
  let all = 0;
  let total = 0;
  for (let mask = 0; mask < 1 << n; mask++) {
    let bits = 0;
    let ok = true;
    for (let i = 0; i < n; i++)
      if (mask & (1 << i)) {
        bits++;
        if (i >= c) ok = false;
      }
    if (bits !== k) continue;
    total++;
    if (ok) all++;
  }
  return all / total;
}

describe('arena trials on a stand-in agent', () => {
  it('fails a known set of trials and reports pass^k = C(c,k)/C(n,k) exactly, for every k ≤ n', async () => {
    const n = 8;
    // under faults task "sum" fails its tries 0, 3 and 5 (c = 5); clean it fails try 6 only (c = 7)
    const { target, applied } = standInTarget([{ id: 'sum' }], {
      passes: (_task, faulted, attempt) => (faulted ? ![0, 3, 5].includes(attempt) : attempt !== 6),
    });
    const ks = [1, 2, 3, 4, 5, 6, 7, 8];
    const report = await runTrialsOnTarget(target, { n, ks, seed: 33, scenario: SCENARIO });
    expect(report.status).toBe('passed');
    const task = report.trials.tasks[0]!;
    expect(task.faulted!.successes).toBe(5);
    expect(task.clean.successes).toBe(7);
    for (const k of ks) {
      expect(task.faulted!.pass_k[String(k)]).toBe(countAllSuccess(n, 5, k));
      expect(task.clean.pass_k[String(k)]).toBe(countAllSuccess(n, 7, k));
      expect(task.delta![String(k)]).toBe(passK(n, 5, k)! - passK(n, 7, k)!);
    }
    // the fault was really applied, once per faulted block, and reverted after each
    expect(applied).toHaveLength(n);
  });

  it('interleaves the arms deterministically from the seed: the same seed gives the same results', async () => {
    const run = async (seed: number) => {
      const order: string[] = [];
      const { target } = standInTarget([{ id: 'a' }, { id: 'b' }], { passes: () => true });
      const report = await runTrialsOnTarget(target, {
        n: 4,
        ks: [1],
        seed,
        scenario: SCENARIO,
        onTrial: (t) => order.push(`${t.arm}:${t.task}`),
      });
      return { order, report };
    };
    const first = await run(7);
    const again = await run(7);
    expect(again.order).toEqual(first.order);
    // every arm gets every task once per round
    for (let round = 0; round < 4; round++)
      expect([...first.order.slice(round * 4, round * 4 + 4)].sort()).toEqual([
        'clean:a',
        'clean:b',
        'faulted:a',
        'faulted:b',
      ]);
    // and no arm always goes first
    const firsts = new Set([0, 1, 2, 3].map((r) => first.order[r * 4]!.split(':')[0]));
    const other = await run(8);
    expect(firsts.size + new Set([0, 1, 2, 3].map((r) => other.order[r * 4]!.split(':')[0])).size).toBeGreaterThan(2);
  });

  it('flags runaway for an agent that retries blindly under faults, and not for one that does not', async () => {
    const run = async (blind: boolean) => {
      const { target } = standInTarget([{ id: 't' }], {
        passes: (_t, faulted) => !faulted,
        llmCalls: (_t, faulted) => (faulted ? (blind ? 12 : 2) : 1),
      });
      return (await runTrialsOnTarget(target, { n: 4, ks: [1], seed: 1, scenario: SCENARIO })).trials.tasks[0]!;
    };
    const blind = await run(true);
    expect(blind.behaviour.runaway).toBe(true);
    expect(blind.behaviour.runaway_trials).toBe(4);
    expect(blind.behaviour.llm_calls).toEqual({ clean: 1, faulted: 12 });
    // 120 tokens a call: 4 × 1 clean, 4 × 12 faulted; usd from the prices
    expect(blind.cost.tokens).toEqual({ clean: 480, faulted: 5760 });
    expect(blind.cost.usd.clean).toBeCloseTo((4 * (100 * 1 + 20 * 2)) / 1e6, 12);
    const careful = await run(false);
    expect(careful.behaviour.runaway).toBe(false);
    expect(careful.behaviour.runaway_trials).toBe(0);
  });

  it('counts duplicate side effects of an agent that writes twice, and none for one that writes once', async () => {
    const run = async (twice: boolean) => {
      const write = { tool: 'write_row', args_hash: 'h1', ok: true };
      const { target } = standInTarget(
        [{ id: 't' }],
        {
          passes: () => true,
          toolCalls: (_t, faulted) =>
            faulted && twice ? [write, write, { tool: 'read_row', args_hash: 'h1', ok: true }] : [write],
        },
        { sideEffects: ['write_*'] },
      );
      return (await runTrialsOnTarget(target, { n: 3, ks: [1], seed: 1, scenario: SCENARIO })).trials.tasks[0]!;
    };
    expect((await run(true)).behaviour.duplicate_side_effects).toBe(3);
    expect((await run(false)).behaviour.duplicate_side_effects).toBe(0);
  });

  it('counts false success when the answer passes while the tool it needs never succeeded, not otherwise', async () => {
    const run = async (lies: boolean) => {
      const { target } = standInTarget([{ id: 't', needs: ['send_*'] }], {
        // under faults the tool fails; the lying agent still answers "done"
        passes: (_t, faulted) => !faulted || lies,
        toolCalls: (_t, faulted) => [{ tool: 'send_email', args_hash: 'x', ok: !faulted }],
      });
      return (await runTrialsOnTarget(target, { n: 3, ks: [1], seed: 1, scenario: SCENARIO })).trials.tasks[0]!;
    };
    expect((await run(true)).behaviour.false_success).toBe(3);
    expect((await run(false)).behaviour.false_success).toBe(0);
  });

  it('attributes calls by traceparent when the agent forwards only that, and says "not measured" without a ledger', async () => {
    const { target } = standInTarget([{ id: 't' }], { passes: () => true, forwards: 'traceparent' });
    const report = await runTrialsOnTarget(target, { n: 2, ks: [1], seed: 1, scenario: SCENARIO });
    expect(report.trials.tasks[0]!.behaviour.llm_calls).toEqual({ clean: 1, faulted: 1 });
    expect(report.trials.unattributed_calls).toBe(0);

    const bare = standInTarget([{ id: 't' }], { passes: () => true }, { withLedger: false });
    const unmeasured = await runTrialsOnTarget(bare.target, { n: 2, ks: [1], seed: 1, scenario: SCENARIO });
    const t = unmeasured.trials.tasks[0]!;
    expect(t.behaviour).toMatchObject({
      llm_calls: { clean: null, faulted: null },
      runaway: null,
      false_success: null,
    });
    expect(t.cost.tokens).toEqual({ clean: null, faulted: null });
    expect(unmeasured.trials.unattributed_calls).toBeNull();
  });

  it('gates: --min-pass-k and --max-cost-ratio fail per task (status failed)', async () => {
    const { target } = standInTarget([{ id: 'good' }, { id: 'bad' }], {
      passes: (task, faulted, attempt) => task === 'good' || !faulted || attempt > 1,
      llmCalls: (task, faulted) => (faulted && task === 'bad' ? 3 : 1),
    });
    const report = await runTrialsOnTarget(target, {
      n: 4,
      ks: [1, 2],
      seed: 1,
      scenario: SCENARIO,
      gates: { minPassK: [{ k: 2, value: 0.9 }], maxCostRatio: 2 },
    });
    expect(report.status).toBe('failed');
    expect(report.gates!.map((g) => [g.task, g.name, g.passed])).toEqual([
      ['good', 'pass^2 >= 0.9', true],
      ['good', 'cost ratio <= 2', true],
      ['bad', 'pass^2 >= 0.9', false],
      ['bad', 'cost ratio <= 2', false],
    ]);
  });

  it('Ctrl-C: the block’s faults are reverted, the cut try is left out, the report says interrupted', async () => {
    const controller = new AbortController();
    const { target } = standInTarget([{ id: 't' }], { passes: () => true });
    let reverted = 0;
    const revertAll = target.runtime.revertAll.bind(target.runtime);
    (target.runtime as { revertAll: typeof revertAll }).revertAll = () => {
      reverted++;
      return revertAll();
    };
    // the fourth try is cut by Ctrl-C while its request is in flight: it comes back failed
    let tries = 0;
    const trials = target.trials!;
    const run = trials.run.bind(trials);
    (trials as { run: typeof run }).run = async (id, mark) => {
      if (++tries < 4) return run(id, mark);
      controller.abort();
      return { passed: false, detail: 'aborted' };
    };
    const report = await runTrialsOnTarget(target, {
      n: 4,
      ks: [1],
      seed: 2,
      scenario: SCENARIO,
      signal: controller.signal,
    });
    expect(report.status).toBe('interrupted');
    const task = report.trials.tasks[0]!;
    expect(task.clean.n + task.faulted!.n).toBe(3);
    expect(task.clean.successes + task.faulted!.successes).toBe(3);
    expect(reverted).toBeGreaterThan(0);
    expect(await target.runtime.activeFaults()).toEqual([]);
  });

  it('refuses bad input before anything runs', async () => {
    const { target, applied } = standInTarget([{ id: 't' }], { passes: () => true });
    await expect(runTrialsOnTarget(target, { n: 4, ks: [8], seed: 1 })).rejects.toMatchObject({ exitCode: 2 });
    await expect(runTrialsOnTarget(target, { n: 4, ks: [1], seed: 1, intensities: [0.1] })).rejects.toThrow(
      /--intensity needs --scenario/,
    );
    const none = standInTarget([], { passes: () => true });
    let started = 0;
    (none.target as { start: () => Promise<void> }).start = async () => {
      started++;
    };
    await expect(runTrialsOnTarget(none.target, { n: 2, ks: [1], seed: 1 })).rejects.toThrow(/lists no tasks/);
    // known before the target starts: nothing is brought up to learn there is nothing to try
    expect(started).toBe(0);
    expect(applied).toEqual([]);
  });
});

describe('attribution', () => {
  it('believes a header naming a trial of this run, refuses one naming none, and never guesses between trials', async () => {
    const { attributeCalls } = await import('../../../../src/arena/trials/attribute.js');
    const trials = [
      { id: 'r0.clean.t', trace_id: 'aa', started_ms: 100, ended_ms: 200 },
      { id: 'r0.faulted.t', trace_id: 'bb', started_ms: 300, ended_ms: 400 },
    ];
    const call = (seq: number, started_ms: number, extra: object = {}) => ({
      seq,
      kind: 'llm' as const,
      started_ms,
      ended_ms: started_ms,
      ok: true,
      faulted: false,
      ...extra,
    });
    const { byTrial, unattributed } = attributeCalls(
      [
        call(1, 150, { trial: 'r0.faulted.t' }), // header wins over timing
        call(2, 350, { trace_id: 'aa' }), // so does the trace id
        call(3, 320), // nothing forwarded, one trial in flight
        call(4, 250), // between trials: a probe, some other client
        call(5, 150, { trial: 'another-run' }), // a header naming no trial of this run
      ],
      trials,
    );
    expect(byTrial.get('r0.faulted.t')!.map((c) => c.seq)).toEqual([1, 3]);
    expect(byTrial.get('r0.clean.t')!.map((c) => c.seq)).toEqual([2]);
    expect(unattributed.map((c) => c.seq)).toEqual([4, 5]);
  });
});

describe('--intensity', () => {
  it('sets the per-call probability of the llm_failure and reports the surface', async () => {
    const params: unknown[] = [];
    const { target } = standInTarget([{ id: 't' }], { passes: (_t, faulted) => !faulted });
    const inject = target.runtime.injectLlmFailure.bind(target.runtime);
    (target.runtime as { injectLlmFailure: typeof inject }).injectLlmFailure = (id, type, options) => {
      params.push(options?.params?.probability);
      return inject(id, type, options);
    };
    const report = await runTrialsOnTarget(target, {
      n: 2,
      ks: [1],
      seed: 1,
      scenario: SCENARIO,
      intensities: [0, 0.3],
    });
    expect(report.trials.surface!.map((p) => p.intensity)).toEqual([0, 0.3]);
    expect(report.trials.surface![0]!.tasks[0]).toMatchObject({ id: 't', n: 2 });
    expect(params.filter((p) => p === 0.3)).toHaveLength(2);
    expect(params.filter((p) => p === 0)).toHaveLength(2);
    expect(params.filter((p) => p === undefined)).toHaveLength(2);
  });
});
