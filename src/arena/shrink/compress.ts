/**
 * After the subset is minimal: pull the faults closer together, then shorten
 * fault durations/delays and the cooldown, each step kept only while the
 * candidate still fails. Gaps and timings first try their floor in one step (a
 * kept step costs the most runs, a lost one the fewest, so one bold step that
 * holds saves the halving rounds); when the floor loses the failure, halving, a
 * few rounds, so compression costs a bounded number of candidates. The cooldown
 * is only halved, and not below 1 s: it is the time the target has to show the
 * failure, and a kept step proves only that its 4 runs failed. Shorter ones
 * held there and then let the written scenario pass on a busy machine (300 ms
 * once in a slow-test run; 375 ms once in 20 runs).
 */
import { tryParseDuration } from '../../shared/duration.js';
import type { Judge, Schedule, ShrinkFault } from './types.js';

const ROUNDS = 3;
/** timings are not shortened below these: a fault needs time to take, the target time to show it */
const MIN_FAULT_MS = 100;
const MIN_COOLDOWN_MS = 1000;
const TIMED_KEYS = ['duration', 'delay'] as const;

export async function compressSchedule(start: Schedule, judge: Judge, onCandidate?: () => void): Promise<Schedule> {
  let best = start;
  const attempt = async (candidate: Schedule | undefined): Promise<boolean> => {
    if (candidate === undefined) return false;
    onCandidate?.();
    if (!(await judge(candidate)).fails) return false;
    best = candidate;
    return true;
  };
  // the first fault at the start of the chaos phase
  await attempt(shiftToZero(best));
  const steps: Array<(s: Schedule, floor: boolean) => Schedule | undefined> = [pullGaps, shortenTimings];
  for (const step of steps) {
    if (await attempt(step(best, true))) continue;
    for (let i = 0; i < ROUNDS; i++) if (!(await attempt(step(best, false)))) break;
  }
  for (let i = 0; i < ROUNDS; i++) if (!(await attempt(halveCooldown(best)))) break;
  return best;
}

/** each gap between faults halved, or at the floor (MIN_FAULT_MS apart, so their order holds) */
function pullGaps(s: Schedule, floor: boolean): Schedule | undefined {
  const half = gapsAt(s, (gap) => Math.floor(gap / 2));
  if (!floor) return half;
  const low = gapsAt(s, (gap) => Math.min(gap, MIN_FAULT_MS));
  // a floor that only repeats what halving reaches next adds a candidate and saves none
  return low && !sameFaults(low.faults, half?.faults) ? low : undefined;
}

function shiftToZero(s: Schedule): Schedule | undefined {
  const first = Math.min(...s.faults.map((f) => f.at_ms));
  if (!(first > 0)) return undefined;
  return { ...s, faults: s.faults.map((f) => ({ ...f, at_ms: f.at_ms - first })) };
}

/** each gap to the fault before it made `shorter(gap)`, in time order; undefined when nothing moves */
function gapsAt(s: Schedule, shorter: (gapMs: number) => number): Schedule | undefined {
  const sorted = [...s.faults].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
  let changed = false;
  const out: ShrinkFault[] = [];
  sorted.forEach((f, i) => {
    if (i === 0) return out.push(f);
    const at = out[i - 1]!.at_ms + shorter(f.at_ms - sorted[i - 1]!.at_ms);
    if (at !== f.at_ms) changed = true;
    out.push({ ...f, at_ms: at });
  });
  return changed ? { ...s, faults: out } : undefined;
}

function shortenTimings(s: Schedule, floor: boolean): Schedule | undefined {
  const half = halveTimings(s);
  if (!floor) return half;
  const low = timingsAt(s, () => MIN_FAULT_MS);
  return low && !sameFaults(low.faults, half?.faults) ? low : undefined;
}

function halveTimings(s: Schedule): Schedule | undefined {
  return timingsAt(s, (ms) => Math.round(ms / 2));
}

function timingsAt(s: Schedule, shorter: (ms: number) => number): Schedule | undefined {
  let changed = false;
  const faults = s.faults.map((f) => {
    if (!f.metadata) return f;
    const metadata = { ...f.metadata };
    for (const key of TIMED_KEYS) {
      const ms = tryParseDuration(metadata[key]);
      if (ms === undefined || ms <= MIN_FAULT_MS) continue;
      metadata[key] = `${Math.max(MIN_FAULT_MS, shorter(ms))}ms`;
      changed = true;
    }
    return { ...f, metadata };
  });
  return changed ? { ...s, faults } : undefined;
}

function halveCooldown(s: Schedule): Schedule | undefined {
  if (s.cooldown_ms <= MIN_COOLDOWN_MS) return undefined;
  return { ...s, cooldown_ms: Math.max(MIN_COOLDOWN_MS, Math.round(s.cooldown_ms / 2)) };
}

function sameFaults(a: readonly ShrinkFault[], b: readonly ShrinkFault[] | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
