import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ddmin, minimalFailingSubset, quickXplainBound } from '../../../../src/arena/shrink/search.js';
import { sequentialJudge } from '../../../../src/arena/shrink/sequential.js';
import { groupFaults } from '../../../../src/arena/shrink/groups.js';
import { shrinkSchedule } from '../../../../src/arena/shrink/shrink.js';
import type { RunVerdict, Schedule, ShrinkFault } from '../../../../src/arena/shrink/types.js';
import { createRandom } from '../../../../src/shared/random.js';

/** n units and a hidden cause of k of them */
const causeArb = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    cause: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: Math.min(n, 4) }),
  }),
);

describe('minimalFailingSubset', () => {
  it('returns exactly the hidden cause of a monotone oracle, within the documented candidate bound', async () => {
    await fc.assert(
      fc.asyncProperty(causeArb, async ({ n, cause }) => {
        let calls = 0;
        const result = await minimalFailingSubset(n, async (subset) => {
          calls++;
          return cause.every((c) => subset.includes(c));
        });
        expect(result.subset).toEqual([...cause].sort((a, b) => a - b));
        expect(result.method).toBe('quickxplain');
        expect(calls).toBe(result.candidates);
        expect(result.candidates).toBeLessThanOrEqual(quickXplainBound(n, cause.length));
      }),
      { numRuns: 300 },
    );
  });

  it('needs far fewer candidates than one-at-a-time removal for 2 of 30', async () => {
    let total = 0;
    const random = createRandom(7);
    for (let t = 0; t < 50; t++) {
      const a = random.int(0, 29);
      let b = random.int(0, 29);
      while (b === a) b = random.int(0, 29);
      total += (await minimalFailingSubset(30, async (s) => s.includes(a) && s.includes(b))).candidates;
    }
    // greedy removal needs 30+; the simulation in the issue measured 12.7 on average
    expect(total / 50).toBeLessThan(20);
  });

  it('greedy one-at-a-time removal finds the same cause with about 2n candidates for 2 of 30 (the issue measured 57.7), over 3x as many', async () => {
    let qx = 0;
    let greedy = 0;
    const random = createRandom(11);
    for (let t = 0; t < 50; t++) {
      const a = random.int(0, 29);
      let b = random.int(0, 29);
      while (b === a) b = random.int(0, 29);
      const oracle = async (s: readonly number[]) => s.includes(a) && s.includes(b);
      const g = await minimalFailingSubset(30, oracle, { strategy: 'greedy' });
      expect(g.subset).toEqual([Math.min(a, b), Math.max(a, b)]);
      greedy += g.candidates;
      qx += (await minimalFailingSubset(30, oracle, { verify: false })).candidates;
    }
    expect(greedy / 50).toBeGreaterThan(50);
    expect(greedy / 50).toBeLessThan(66);
    expect(greedy / qx).toBeGreaterThan(3);
  });

  it('falls back to ddmin when removing a fault hides the failure, and ends 1-minimal', async () => {
    await fc.assert(
      fc.asyncProperty(causeArb, fc.integer({ min: 0, max: 39 }), async ({ n, cause }, hider) => {
        // non-monotone: the cause fails unless the "hider" fault is present too, except in the full set
        const fails = (s: readonly number[]) =>
          cause.every((c) => s.includes(c)) && (!s.includes(hider) || s.length === n);
        const result = await minimalFailingSubset(n, async (s) => fails(s));
        expect(fails(result.subset)).toBe(true);
        for (const u of result.subset) expect(fails(result.subset.filter((x) => x !== u))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('judging a round several at a time (workers) ends with the subset one at a time finds, rounds overlapping', async () => {
    await fc.assert(
      fc.asyncProperty(
        causeArb,
        fc.integer({ min: 0, max: 39 }),
        fc.integer({ min: 2, max: 6 }),
        async ({ n, cause }, hider, width) => {
          const fails = (s: readonly number[]) =>
            cause.every((c) => s.includes(c)) && (!s.includes(hider) || s.length === n);
          let inFlight = 0;
          let most = 0;
          const oracle = async (s: readonly number[]) => {
            most = Math.max(most, ++inFlight);
            await new Promise((r) => setTimeout(r, 0));
            inFlight--;
            return fails(s);
          };
          const one = await minimalFailingSubset(n, async (s) => fails(s));
          const wide = await minimalFailingSubset(n, oracle, { width });
          expect(wide.subset).toEqual(one.subset);
          // the fallback's rounds (ddmin, the 1-minimality check) ran several candidates at once
          if (one.method === 'ddmin') expect(most).toBeGreaterThan(1);
          expect(most).toBeLessThanOrEqual(width);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('ddmin alone finds the cause of a monotone oracle', async () => {
    const result = await ddmin([0, 1, 2, 3, 4, 5, 6, 7], async (s) => s.includes(2) && s.includes(6));
    expect(result).toEqual([2, 6]);
  });

  it('an empty schedule that fails needs no fault', async () => {
    expect((await minimalFailingSubset(5, async () => true)).subset).toEqual([]);
  });
});

describe('sequentialJudge', () => {
  const schedule: Schedule = { faults: [], cooldown_ms: 0 };
  it('holds its documented error rates (α = 0.01, β = 0.05) at p0 and p1', async () => {
    const trials = 2000;
    const rate = async (p: number) => {
      const random = createRandom(Math.round(p * 1000));
      const judge = sequentialJudge(async () => (random.next() < p ? 'fail' : 'pass'));
      let fails = 0;
      for (let i = 0; i < trials; i++) if ((await judge(schedule)).fails) fails++;
      return fails / trials;
    };
    // a passing candidate (fails at p0 = 0.05) judged failing at most α, with sampling slack
    expect(await rate(0.05)).toBeLessThan(0.01 + 0.01);
    // a failing candidate (fails at p1 = 0.6) judged passing at most β
    expect(1 - (await rate(0.6))).toBeLessThan(0.05 + 0.02);
  });

  it('settles a clear candidate in a few runs', async () => {
    const always = sequentialJudge(async () => 'fail');
    expect(await always(schedule)).toEqual({ fails: true, runs: 2, failures: 2, spent: 2 });
    const never = sequentialJudge(async () => 'pass');
    expect(await never(schedule)).toEqual({ fails: false, runs: 4, failures: 0, spent: 4 });
  });

  it('with allOf, fails only when that many judged runs in a row fail, and stops at the first pass', async () => {
    const verdicts: RunVerdict[] = ['fail', 'unjudged', 'fail', 'pass', 'fail'];
    const judge = sequentialJudge(async () => verdicts.shift()!);
    expect(await judge(schedule, { allOf: 4 })).toEqual({ fails: false, runs: 3, failures: 2, spent: 4 });
    expect(judge.runsSpent()).toBe(4);
    const always = sequentialJudge(async () => 'fail');
    expect(await always(schedule, { allOf: 4 })).toEqual({ fails: true, runs: 4, failures: 4, spent: 4 });
  });

  it('retries unjudged runs without counting them as passes, and gives up after too many', async () => {
    const verdicts: RunVerdict[] = ['unjudged', 'fail', 'unjudged', 'fail'];
    const judge = sequentialJudge(async () => verdicts.shift()!);
    expect(await judge(schedule)).toEqual({ fails: true, runs: 2, failures: 2, spent: 4 });
    expect(judge.runsSpent()).toBe(4);
    const broken = sequentialJudge(async () => 'unjudged');
    await expect(broken(schedule)).rejects.toThrow(/could not be judged/);
  });
});

function fault(id: number, type: ShrinkFault['type'], target_id: string, at_ms: number): ShrinkFault {
  return { id, label: `f${id}`, type, target_id, at_ms, metadata: { duration: '2s' } };
}

describe('shrinkSchedule with a noisy oracle', () => {
  it('keeps a pause with its resume, and at 10% noise keeps the cause in nearly every shrink', async () => {
    const faults = [
      fault(0, 'kill_agent', 'agent-1', 0),
      fault(1, 'pause_agent', 'agent-2', 500),
      fault(2, 'slow_agent', 'agent-3', 900),
      fault(3, 'resume_agent', 'agent-2', 1500),
      fault(4, 'kill_agent', 'agent-4', 2000),
      fault(5, 'slow_agent', 'agent-1', 2500),
    ];
    expect(groupFaults(faults).map((u) => u.map((f) => f.id))).toEqual([[0], [1, 3], [2], [4], [5]]);
    const at = new Map(faults.map((f) => [f.id, f.at_ms]));
    let kept = 0;
    let exact = 0;
    const trials = 100;
    for (let seed = 1; seed <= trials; seed++) {
      const random = createRandom(seed);
      // 10% noise is twice the p0 = 5% the sequential test's error bounds are stated for: some shrinks go wrong
      const judge = sequentialJudge(async (s) => {
        const ids = s.faults.map((f) => f.id);
        const cause = ids.includes(1) && ids.includes(4);
        return random.next() < (cause ? 0.9 : 0.1) ? 'fail' : 'pass';
      });
      const out = await shrinkSchedule({ faults, cooldown_ms: 3000 }, { judge });
      if (!out.reproduced) continue;
      const ids = out.schedule.faults.map((f) => f.id);
      // the pause never goes without its resume
      expect(ids.includes(1)).toBe(ids.includes(3));
      // compression kept the order in time and moved no fault later
      for (const f of out.schedule.faults) expect(f.at_ms).toBeLessThanOrEqual(at.get(f.id)!);
      const now = new Map(out.schedule.faults.map((f) => [f.id, f.at_ms]));
      const byNow = [...ids].sort((a, b) => now.get(a)! - now.get(b)! || a - b);
      expect(byNow).toEqual([...ids].sort((a, b) => at.get(a)! - at.get(b)! || a - b));
      if (ids.includes(1) && ids.includes(4)) kept++;
      if ([...ids].sort().join() === '1,3,4') exact++;
    }
    // measured: the cause kept in 85 of 100 (76 before a certificate drop needed four failing runs in a row)
    expect(kept).toBeGreaterThanOrEqual(80);
    expect(exact).toBeGreaterThanOrEqual(75);
  });

  it('on workers (width 3) the certificate judges its removals at once, with the result and runs of one at a time', async () => {
    const faults = [0, 1, 2, 3, 4].map((i) => fault(i, 'slow_agent', `agent-${i}`, i * 500));
    const shrinkWith = async (width: number) => {
      let inFlight = 0;
      let most = 0;
      const judge = sequentialJudge(async (s) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 0));
        inFlight--;
        const ids = s.faults.map((f) => f.id);
        return [1, 2, 4].every((c) => ids.includes(c)) ? 'fail' : 'pass';
      });
      const out = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge, width });
      if (!out.reproduced) throw new Error('did not reproduce');
      return { out, most };
    };
    const one = await shrinkWith(1);
    const three = await shrinkWith(3);
    expect(three.out.schedule).toEqual(one.out.schedule);
    expect(three.out.certificate).toEqual(one.out.certificate);
    expect(three.out.phases).toEqual(one.out.phases);
    expect(one.most).toBe(1);
    // the three removals of the certificate ran side by side
    expect(three.most).toBe(3);
  });

  it('drops a fault from the certificate only when the schedule fails without it four runs in a row', async () => {
    const faults = [fault(0, 'slow_agent', 'agent-0', 1000), fault(1, 'slow_agent', 'agent-1', 2000)];
    // both faults are needed; once compressed (f0 moved to 0), the run without f1 fails twice by chance, then passes
    let burst = 2;
    const judge = sequentialJudge(async (s) => {
      if (s.faults.length === 2) return 'fail';
      const [only] = s.faults;
      if (only?.id === 0 && only.at_ms === 0 && burst > 0) {
        burst--;
        return 'fail';
      }
      return 'pass';
    });
    const out = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge });
    if (!out.reproduced) throw new Error('did not reproduce');
    expect(out.schedule.faults.map((f) => f.id)).toEqual([0, 1]);
    const f1 = out.certificate.find((c) => c.fault === 'f1')!;
    // the sequential test said "still fails" (2 of 2), the strict check passed at its first run: 2 of 3 measured
    expect(f1).toMatchObject({ runs: 3, fail_rate_without: 2 / 3 });
  });

  it('keeps a compression step only when it failed in every run, so the output fails as reliably as the original', async () => {
    const faults = [0, 1].map((i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
    // both faults are needed; below a 2 s cooldown the failure shows only two runs in three (the target is
    // sometimes too slow to show it before the checks)
    let turn = 0;
    const judge = sequentialJudge(async (s) => {
      if (s.faults.length < 2) return 'pass';
      if (s.cooldown_ms >= 2000) return 'fail';
      return turn++ % 3 === 2 ? 'pass' : 'fail';
    });
    const out = await shrinkSchedule({ faults, cooldown_ms: 4000 }, { judge });
    if (!out.reproduced) throw new Error('did not reproduce');
    expect(out.schedule.cooldown_ms).toBe(2000);
  });

  it('drops a compression step at its first passing run, and keeps one only after four failing runs in a row', async () => {
    const faults = [0, 1].map((i) => fault(i, 'slow_agent', `agent-${i}`, 1000 + i * 1000));
    // the failure needs both faults at least 800 ms apart: moving them to 0 and 1000 keeps it, halving the gap
    // to 500 loses it; timings and cooldown do not matter
    const judge = sequentialJudge(async (s) => {
      if (s.faults.length < 2) return 'pass';
      const [a, b] = s.faults.map((f) => f.at_ms);
      return Math.abs(b! - a!) >= 800 ? 'fail' : 'pass';
    });
    const out = await shrinkSchedule({ faults, cooldown_ms: 600 }, { judge, runsSpent: judge.runsSpent });
    if (!out.reproduced) throw new Error('did not reproduce');
    expect(out.schedule.faults.map((f) => f.at_ms)).toEqual([0, 1000]);
    // kept: the shift to 0, the durations 2s → 100ms at once (their floor) (4 runs each); dropped at its
    // first run: the gap at its floor (100 ms), then the halved gap; the 600 ms cooldown is under its 1 s floor
    expect(out.phases.compress).toEqual({ candidates: 4, runs: 2 * 4 + 2 });
    expect(out.schedule.cooldown_ms).toBe(600);
    expect(out.schedule.faults.map((f) => f.metadata?.duration)).toEqual(['100ms', '100ms']);
  });

  it('reports every smaller failing schedule as it is confirmed (what Ctrl-C prints), ending with the result', async () => {
    const faults = [0, 1, 2, 3, 4].map((i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
    const judge = sequentialJudge(async (s) => (s.faults.some((f) => f.id === 3) ? 'fail' : 'pass'));
    const sizes: number[] = [];
    let last: Schedule | undefined;
    const out = await shrinkSchedule(
      { faults, cooldown_ms: 1000 },
      {
        judge,
        onSmaller: (s) => {
          sizes.push(s.faults.length);
          last = s;
        },
      },
    );
    if (!out.reproduced) throw new Error('did not reproduce');
    expect(sizes[0]).toBe(5);
    expect(sizes.at(-1)).toBe(1);
    expect(last).toEqual(out.schedule);
  });

  it('drops a fault the certificate finds unneeded, and certifies what remains', async () => {
    const faults = [0, 1, 2, 3].map((i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
    let certifying = false;
    // during the search fault 0 and 2 are needed; by the certificate only fault 2 is (the system changed under us)
    const judge = sequentialJudge(async (s) => {
      const ids = s.faults.map((f) => f.id);
      return ids.includes(2) && (certifying || ids.includes(0)) ? 'fail' : 'pass';
    });
    const out = await shrinkSchedule(
      { faults, cooldown_ms: 1000 },
      {
        judge,
        onProgress: (p) => {
          if (p.phase === 'certificate') certifying = true;
        },
      },
    );
    if (!out.reproduced) throw new Error('did not reproduce');
    expect(out.minimal.map((f) => f.id)).toEqual([0, 2]);
    expect(out.schedule.faults.map((f) => f.id)).toEqual([2]);
    // the last fault is certified too, by runs without any fault
    expect(out.certificate).toHaveLength(1);
    expect(out.certificate[0]).toMatchObject({ fault: 'f2', fail_rate_without: 0 });
    expect(out.certificate[0]!.runs).toBeGreaterThan(0);
    expect(out.certificate[0]!.interval[1]).toBeLessThan(1);
  });

  it('certifies a single remaining fault by runs without any fault, and keeps it when the target fails alone', async () => {
    const faults = [0, 1, 2].map((i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
    const seen: number[] = [];
    const needed = sequentialJudge(async (s) => {
      seen.push(s.faults.length);
      return s.faults.some((f) => f.id === 1) ? 'fail' : 'pass';
    });
    const out = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge: needed });
    if (!out.reproduced) throw new Error('did not reproduce');
    expect(out.schedule.faults.map((f) => f.id)).toEqual([1]);
    expect(seen).toContain(0); // the empty schedule really ran
    expect(out.certificate).toEqual([
      expect.objectContaining({ fault: 'f1', fail_rate_without: 0, runs: expect.any(Number) }),
    ]);
    // a target that fails on its own: the fault stays (a scenario needs one) and its certificate says so
    const alone = sequentialJudge(async () => 'fail');
    const own = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge: alone });
    if (!own.reproduced) throw new Error('did not reproduce');
    expect(own.schedule.faults).toHaveLength(1);
    expect(own.certificate).toHaveLength(1);
    expect(own.certificate[0]!.fail_rate_without).toBe(1);
  });

  it('stops at the next candidate when aborted', async () => {
    const controller = new AbortController();
    const judge = sequentialJudge(async () => {
      controller.abort();
      return 'fail';
    });
    const faults = [0, 1, 2].map((i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
    await expect(shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge, signal: controller.signal })).rejects.toThrow();
  });

  it('at zero noise, returns exactly a hidden k-fault cause within the documented number of candidates', async () => {
    await fc.assert(
      fc.asyncProperty(causeArb, async ({ n, cause }) => {
        const faults = Array.from({ length: n }, (_, i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
        const judge = sequentialJudge(async (s) =>
          cause.every((c) => s.faults.some((f) => f.id === c)) ? 'fail' : 'pass',
        );
        const out = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge });
        if (!out.reproduced) throw new Error('did not reproduce');
        expect(out.schedule.faults.map((f) => f.id).sort((a, b) => a - b)).toEqual([...cause].sort((a, b) => a - b));
        expect(out.certificate.every((c) => c.fail_rate_without === 0)).toBe(true);
        // docs/guides/shrink.md: reproduction 1 + search quickXplainBound(n, k) + its confirmation 1
        // + compression at most 12 (the shift, gaps and timings each their floor and 3 halvings, the cooldown
        // 3 halvings) + certificate k
        expect(out.candidates).toBeLessThanOrEqual(14 + quickXplainBound(n, cause.length) + cause.length);
        // a clearly failing candidate costs 2 runs, a clearly passing one 4
        expect(judge.runsSpent()).toBeLessThanOrEqual(4 * out.candidates);
      }),
      { numRuns: 200 },
    );
  });

  it('at a set noise rate, returns a superset of a hidden k-fault cause in nearly every case', async () => {
    let supersets = 0;
    let total = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(causeArb, fc.integer({ min: 1, max: 2 ** 31 }), async ({ n, cause }, seed) => {
        const random = createRandom(seed);
        const noise = 0.02;
        const faults = Array.from({ length: n }, (_, i) => fault(i, 'slow_agent', `agent-${i}`, i * 100));
        const judge = sequentialJudge(async (s) => {
          const ids = s.faults.map((f) => f.id);
          const fails = cause.every((c) => ids.includes(c));
          return random.next() < noise ? (fails ? 'pass' : 'fail') : fails ? 'fail' : 'pass';
        });
        const out = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge });
        total++;
        runs += judge.runsSpent();
        if (!out.reproduced) return;
        const ids = out.schedule.faults.map((f) => f.id);
        if (cause.every((c) => ids.includes(c))) supersets++;
      }),
      { numRuns: 200 },
    );
    // measured 200 of 200 (198 before the search's result was confirmed afresh at α = 0.01)
    expect(supersets / total).toBeGreaterThanOrEqual(0.97);
    expect(runs / total).toBeLessThan(200);
  });

  it('at 5% noise (p0), keeps a hidden 2-fault cause among 30: a fresh confirmation of the search result, α = 0.01', async () => {
    // a chance failure of a passing candidate (α) can make the search's result a set without the cause; the
    // cached verdict then "confirmed" it and compression and the certificate could not bring the cause back
    let kept = 0;
    const trials = 100;
    for (let t = 0; t < trials; t++) {
      const pick = createRandom(7 * t + 1);
      const a = pick.int(0, 29);
      let b = pick.int(0, 28);
      if (b >= a) b++;
      const random = createRandom(t + 1);
      const faults = Array.from({ length: 30 }, (_, i) => fault(i, 'slow_agent', `agent-${i % 3}`, i * 400));
      const judge = sequentialJudge(async (s) => {
        const fails = s.faults.some((f) => f.id === a) && s.faults.some((f) => f.id === b);
        return random.next() < 0.05 ? (fails ? 'pass' : 'fail') : fails ? 'fail' : 'pass';
      });
      const out = await shrinkSchedule({ faults, cooldown_ms: 1000 }, { judge });
      if (!out.reproduced) continue;
      const ids = out.schedule.faults.map((f) => f.id);
      if (ids.includes(a) && ids.includes(b)) kept++;
    }
    // measured: 99 of 100; 92 when the search's own cached verdict confirmed its result at α = 0.05, 96 with
    // only the fresh confirmation
    expect(kept).toBeGreaterThanOrEqual(97);
  });

  it('says so when the original does not reproduce', async () => {
    const judge = sequentialJudge(async () => 'pass');
    const out = await shrinkSchedule({ faults: [fault(0, 'kill_agent', 'agent-1', 0)], cooldown_ms: 1000 }, { judge });
    expect(out).toMatchObject({ reproduced: false, runs_to_reproduce: 4, failures: 0 });
    // nothing more than the reproduction was spent
    if (out.reproduced) throw new Error('reproduced');
    expect(out.phases.reproduce).toEqual({ runs: 4, candidates: 1 });
    expect(out.phases.search).toEqual({ runs: 0, candidates: 0 });
  });
});
