/**
 * The whole shrink, still pure: reproduce the original → minimal subset of
 * fault units at their original times → compression → certificate. Runs go
 * through the injected judge; progress through a callback.
 */
import { wilsonInterval } from '../score-interval.js';
import { compressSchedule } from './compress.js';
import { groupFaults } from './groups.js';
import { minimalFailingSubset, type SearchMethod } from './search.js';
import type { Judge, Judgement, JudgeOptions, Schedule, ShrinkFault, ShrinkProgress } from './types.js';

/** runs in a row that must all fail for a compression step to be kept */
const COMPRESS_RUNS = 4;

export interface CertificateEntry {
  fault: string;
  /** failures ÷ judged runs of the minimal schedule without this fault (and its pair) */
  fail_rate_without: number;
  runs: number;
  /** 95% Wilson interval of that rate */
  interval: [number, number];
}

/** the phases runs are spent in, in order (the search confirms its own result within 'search') */
export type ShrinkPhase = 'reproduce' | 'search' | 'compress' | 'certificate';
/** runs (every run, unjudged ones included, when the judge counts them) and candidates spent per phase */
export type PhaseCounts = Record<ShrinkPhase, { runs: number; candidates: number }>;

export type ShrinkOutcome =
  | { reproduced: false; runs_to_reproduce: number; failures: number; phases: PhaseCounts }
  | {
      reproduced: true;
      phases: PhaseCounts;
      schedule: Schedule;
      /** the minimal subset before compression, at the original times */
      minimal: ShrinkFault[];
      candidates: number;
      method: SearchMethod;
      certificate: CertificateEntry[];
    };

export interface ShrinkOptions {
  judge: Judge;
  onProgress?: (p: ShrinkProgress) => void;
  /** runs spent so far, for progress */
  runsSpent?: () => number;
  /** abort → the search stops at the next candidate (the caller reports the smallest failing set so far) */
  signal?: AbortSignal;
  /** each time a smaller (or more compressed) failing schedule is confirmed: what Ctrl-C can still report */
  onSmaller?: (schedule: Schedule) => void;
  /** `greedy` removes one unit at a time: the baseline the runs saved are measured against */
  search?: 'quickxplain' | 'greedy';
  /**
   * candidates of one round judged at once — the certificate's removals, ddmin's chunks — when the runs go to
   * workers (1, the default, when they run here one at a time); the result is the one a width of 1 gives
   */
  width?: number;
}

export async function shrinkSchedule(original: Schedule, options: ShrinkOptions): Promise<ShrinkOutcome> {
  const { signal } = options;
  let candidates = 0;
  const width = Math.max(1, Math.floor(options.width ?? 1));
  const phases: PhaseCounts = {
    reproduce: { runs: 0, candidates: 0 },
    search: { runs: 0, candidates: 0 },
    compress: { runs: 0, candidates: 0 },
    certificate: { runs: 0, candidates: 0 },
  };
  /** every run goes through here, charged to the phase it was spent in (judgements of a round overlap in time) */
  const judgeIn = async (phase: ShrinkPhase, s: Schedule, judgeOptions?: JudgeOptions): Promise<Judgement> => {
    const j = await options.judge(s, judgeOptions);
    phases[phase].runs += j.spent ?? j.runs;
    return j;
  };
  let size = original.faults.length;
  const progress = (phase: ShrinkProgress['phase'], trying?: Schedule) =>
    options.onProgress?.({
      phase,
      candidates,
      size,
      runs: options.runsSpent?.() ?? 0,
      ...(trying ? { trying: trying.faults.map((f) => f.label) } : {}),
    });
  const counted =
    (phase: ShrinkPhase): Judge =>
    async (s, judgeOptions) => {
      signal?.throwIfAborted();
      candidates++;
      phases[phase].candidates++;
      progress(phase, s);
      return judgeIn(phase, s, judgeOptions);
    };

  const first = await counted('reproduce')(original);
  if (!first.fails) return { reproduced: false, runs_to_reproduce: first.runs, failures: first.failures, phases };
  options.onSmaller?.(original);

  const units = groupFaults(original.faults);
  const search = counted('search');
  const flatten = (subset: readonly number[]) => subset.flatMap((i) => units[i]!);
  // judged once per subset across both search passes below
  const known = new Map<string, boolean>();
  const oracle = async (subset: readonly number[]): Promise<boolean> => {
    // a scenario needs at least one action: the empty schedule is not a run, and the original failed with faults
    if (subset.length === 0) return false;
    const key = subset.join(',');
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const faults = flatten(subset);
    const fails = (await search({ ...original, faults })).fails;
    known.set(key, fails);
    if (fails && faults.length < size) {
      size = faults.length;
      options.onSmaller?.({ ...original, faults });
    }
    return fails;
  };
  // the certificate below checks each remaining unit, so the search skips its own 1-minimality pass …
  const searchOptions = { ...(options.search ? { strategy: options.search } : {}), width };
  let found = await minimalFailingSubset(units.length, oracle, { ...searchOptions, verify: false });
  // … but its result must be confirmed by a fresh judgement, never a cached one: the verdict that put it
  // there may be the one chance failure of a passing candidate (α), and then the cause is not in it and
  // nothing later can bring it back. When it does not fail (that, or a fault that hid the failure), the
  // fresh verdict replaces the cached one and the search runs again with the ddmin fallback and the
  // verification on
  const confirmation = await search({ ...original, faults: flatten(found.subset) });
  known.set(found.subset.join(','), confirmation.fails);
  if (!confirmation.fails) found = await minimalFailingSubset(units.length, oracle, searchOptions);
  const minimal = flatten(found.subset);
  size = minimal.length;
  const compressJudge = counted('compress');
  const compressed = await compressSchedule({ ...original, faults: minimal }, async (s) => {
    // the output must fail as reliably as the original, so a step is kept only when COMPRESS_RUNS runs in a
    // row all failed: one sequential test alone (2 runs) keeps a step that fails 70% of the time about half the
    // time (a shorter cooldown that the restart sometimes outruns); four clean runs keep it a quarter of the
    // time. The first pass ends the check, so a step that lost the failure costs a run or two, not a whole test
    const j = await compressJudge(s, { allOf: COMPRESS_RUNS });
    if (j.fails) options.onSmaller?.(s);
    return j;
  });

  // the certificate: each unit removed from the final schedule, judged again; a unit whose removal
  // still fails was not needed after all (noise during the search, or compression made it redundant): dropped
  const certify = counted('certificate');
  let schedule = compressed;
  let certificate: CertificateEntry[] = [];
  certifying: for (;;) {
    certificate = [];
    const kept = groupFaults(schedule.faults);
    const rests = kept.map((unit) => {
      const ids = new Set(unit.map((f) => f.id));
      return schedule.faults.filter((f) => !ids.has(f.id));
    });
    // judged `width` at a time; the units of a batch are then read in order, as one at a time would
    const judged: Judgement[] = [];
    for (const [i, unit] of kept.entries()) {
      const rest = rests[i]!;
      if (i % width === 0) {
        const batch = rests.slice(i, i + width).map((r) => certify({ ...schedule, faults: r }));
        judged.push(...(await Promise.all(batch)));
      }
      // the last unit left is certified too: without it the run has no fault at all, so what is measured
      // is the target on its own (a failure there is the target's, kept in the certificate for all to see)
      let without = judged[i]!;
      if (without.fails && rest.length > 0) {
        // dropping the unit changes the output, so it must fail as reliably as a kept compression step
        // (COMPRESS_RUNS failing runs in a row): one sequential test alone drops a needed fault whenever the
        // failure shows without it by chance a couple of times
        const again = await judgeIn('certificate', { ...schedule, faults: rest }, { allOf: COMPRESS_RUNS });
        if (again.fails) {
          schedule = { ...schedule, faults: rest };
          size = rest.length;
          options.onSmaller?.(schedule);
          continue certifying;
        }
        without = { fails: false, runs: without.runs + again.runs, failures: without.failures + again.failures };
      }
      const w = wilsonInterval(without.failures, without.runs);
      for (const f of unit)
        certificate.push({
          fault: f.label,
          fail_rate_without: without.runs > 0 ? without.failures / without.runs : 0,
          runs: without.runs,
          interval: [round4(w.low), round4(w.high)],
        });
    }
    break;
  }
  progress('certificate');
  return { reproduced: true, phases, schedule, minimal, candidates, method: found.method, certificate };
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
