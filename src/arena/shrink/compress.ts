/**
 * After the subset is minimal: pull the faults closer together, then shorten
 * fault durations/delays and the cooldown, each step kept only while the
 * candidate still fails. Halving, a few rounds each, so compression costs a
 * bounded number of candidates.
 */
import { tryParseDuration } from '../../shared/duration.js';
import type { Judge, Schedule, ShrinkFault } from './types.js';

const ROUNDS = 3;
/** timings are not shortened below these: a fault needs time to take, the target time to show it */
const MIN_FAULT_MS = 100;
const MIN_COOLDOWN_MS = 300;
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
  for (let i = 0; i < ROUNDS; i++) if (!(await attempt(halveGaps(best)))) break;
  for (let i = 0; i < ROUNDS; i++) if (!(await attempt(halveTimings(best)))) break;
  for (let i = 0; i < ROUNDS; i++) if (!(await attempt(halveCooldown(best)))) break;
  return best;
}

function shiftToZero(s: Schedule): Schedule | undefined {
  const first = Math.min(...s.faults.map((f) => f.at_ms));
  if (!(first > 0)) return undefined;
  return { ...s, faults: s.faults.map((f) => ({ ...f, at_ms: f.at_ms - first })) };
}

export function halveGaps(s: Schedule): Schedule | undefined {
  const sorted = [...s.faults].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
  let changed = false;
  const out: ShrinkFault[] = [];
  sorted.forEach((f, i) => {
    if (i === 0) return out.push(f);
    const gap = f.at_ms - sorted[i - 1]!.at_ms;
    const at = out[i - 1]!.at_ms + Math.floor(gap / 2);
    if (at !== f.at_ms) changed = true;
    out.push({ ...f, at_ms: at });
  });
  return changed ? { ...s, faults: out } : undefined;
}

function halveTimings(s: Schedule): Schedule | undefined {
  let changed = false;
  const faults = s.faults.map((f) => {
    if (!f.metadata) return f;
    const metadata = { ...f.metadata };
    for (const key of TIMED_KEYS) {
      const ms = tryParseDuration(metadata[key]);
      if (ms === undefined || ms <= MIN_FAULT_MS) continue;
      metadata[key] = `${Math.max(MIN_FAULT_MS, Math.round(ms / 2))}ms`;
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
