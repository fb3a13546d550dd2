/**
 * The subset search, over units identified by index. QuickXplain-style
 * divide and conquer (Junker 2004) finds a minimal failing subset in about
 * k·log2(n/k) + 2k candidates when k units are needed and failure is
 * monotone (more faults never hide it). When it is not — the divide and
 * conquer result does not fail, or a one-unit removal still fails — ddmin
 * (Zeller 2002) takes over, which needs no monotonicity and ends 1-minimal.
 * Pure: the oracle is injected, results are cached so no candidate is judged twice.
 */

/** true when the candidate (indices into the units, ascending) fails with the signature */
export type SubsetOracle = (subset: readonly number[]) => Promise<boolean>;

export interface SubsetResult {
  subset: number[];
  /** distinct candidates judged */
  candidates: number;
  /** 'quickxplain', 'ddmin' when the fallback was needed, or 'greedy' when asked for */
  method: SearchMethod;
}

export type SearchMethod = 'quickxplain' | 'ddmin' | 'greedy';

/** the documented bound on candidates for a monotone oracle: n units, k needed */
export function quickXplainBound(n: number, k: number): number {
  if (k === 0) return 1;
  return Math.ceil(2 * k * Math.log2(Math.max(2, n / k)) + 2 * k) + 1 + k;
}

export interface SubsetSearchOptions {
  /** `greedy` (one-at-a-time removal) exists to measure what the divide and conquer saves */
  strategy?: 'quickxplain' | 'greedy';
  /** check 1-minimality here; a caller that certifies each unit afterwards (shrinkSchedule) can skip it */
  verify?: boolean;
  /**
   * candidates of one round judged at once (ddmin's chunks, the 1-minimality check): the answer is the one a
   * one-at-a-time loop gives, sooner, for runs on workers; the divide and conquer and greedy stay one at a time
   */
  width?: number;
}

export async function minimalFailingSubset(
  n: number,
  oracle: SubsetOracle,
  options: SubsetSearchOptions = {},
): Promise<SubsetResult> {
  const { strategy = 'quickxplain', verify = true } = options;
  const width = Math.max(1, Math.floor(options.width ?? 1));
  // the verdict's promise, so a candidate asked for twice in one round is still judged once
  const cache = new Map<string, Promise<boolean>>();
  const fails = (subset: number[]): Promise<boolean> => {
    const sorted = [...subset].sort((a, b) => a - b);
    const key = sorted.join(',');
    let verdict = cache.get(key);
    if (verdict === undefined) {
      verdict = oracle(sorted);
      cache.set(key, verdict);
    }
    return verdict;
  };
  const all = Array.from({ length: n }, (_, i) => i);
  if (n === 0) return { subset: [], candidates: cache.size, method: 'quickxplain' };
  // the empty schedule failing means no fault is needed: the failure is the target's own
  if (await fails([])) return { subset: [], candidates: cache.size, method: 'quickxplain' };

  if (strategy === 'greedy') {
    // the textbook one-at-a-time removal the research measured (57.7 candidates for a 2-fault cause
    // among 30; this loop averages 58.0 in simulation): after each removal it starts again from the first
    // unit, so it re-asks about units already found needed. It ends 1-minimal: its last pass removed nothing
    let current = all;
    for (let removed = true; removed; ) {
      removed = false;
      for (const u of current) {
        const without = current.filter((x) => x !== u);
        if (without.length > 0 && (await fails(without))) {
          current = without;
          removed = true;
          break;
        }
      }
    }
    return { subset: current, candidates: cache.size, method: 'greedy' };
  }

  const qx = async (background: number[], delta: number[], candidates: number[]): Promise<number[]> => {
    if (delta.length > 0 && (await fails(background))) return [];
    if (candidates.length === 1) return candidates;
    const half = Math.ceil(candidates.length / 2);
    const c1 = candidates.slice(0, half);
    const c2 = candidates.slice(half);
    const d2 = await qx([...background, ...c1], c1, c2);
    const d1 = await qx([...background, ...d2], d2, c1);
    return [...d1, ...d2];
  };
  let found = (await qx([], [], all)).sort((a, b) => a - b);
  let method: SubsetResult['method'] = 'quickxplain';
  if (!verify) return { subset: found, candidates: cache.size, method };
  if (!(await fails(found))) {
    // removal hid the failure somewhere: start again from the whole run with ddmin
    found = await ddmin(all, fails, width);
    method = 'ddmin';
  }
  // 1-minimal: each remaining unit is needed (cached when QuickXplain already knew)
  for (;;) {
    const current = found;
    const hit = await firstFailing(
      current.map((u) => current.filter((x) => x !== u)),
      fails,
      width,
    );
    if (hit < 0) break;
    found = await ddmin(
      current.filter((x) => x !== current[hit]),
      fails,
      width,
    );
    method = 'ddmin';
  }
  return { subset: found, candidates: cache.size, method };
}

/** Zeller's ddmin: `start` must fail; returns a 1-minimal failing subset of it (`width`: as in the search) */
export async function ddmin(
  start: number[],
  fails: (subset: number[]) => Promise<boolean>,
  width = 1,
): Promise<number[]> {
  let current = [...start];
  let granularity = 2;
  while (current.length >= 2) {
    const chunks = split(current, granularity);
    let reduced = false;
    const chunk = await firstFailing(chunks, fails, width);
    if (chunk >= 0) {
      current = chunks[chunk]!;
      granularity = 2;
      reduced = true;
    }
    if (!reduced) {
      const whole = current;
      const complements = chunks.map((c) => whole.filter((x) => !c.includes(x)));
      const complement = await firstFailing(complements, fails, width);
      if (complement >= 0) {
        current = complements[complement]!;
        granularity = Math.max(granularity - 1, 2);
        reduced = true;
      }
    }
    if (!reduced) {
      if (granularity >= current.length) break;
      granularity = Math.min(current.length, granularity * 2);
    }
  }
  if (current.length === 1 && (await fails([]))) return [];
  return current;
}

/**
 * the index of the first subset, in order, that fails (-1: none), judging `width` at a time: the same
 * answer as trying them one by one, which is what width 1 does
 */
async function firstFailing(
  subsets: number[][],
  fails: (subset: number[]) => Promise<boolean>,
  width: number,
): Promise<number> {
  for (let i = 0; i < subsets.length; i += width) {
    const verdicts = await Promise.all(subsets.slice(i, i + width).map((subset) => fails(subset)));
    const hit = verdicts.indexOf(true);
    if (hit >= 0) return i + hit;
  }
  return -1;
}

function split<T>(items: T[], parts: number): T[][] {
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < parts; i++) {
    const end = start + Math.floor((items.length - start) / (parts - i));
    if (end > start) out.push(items.slice(start, end));
    start = end;
  }
  return out;
}
