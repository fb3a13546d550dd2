/**
 * Faults that belong together move together: a pause_agent and the
 * resume_agent that ends it (removing the resume alone would turn a short
 * pause into one that lasts the whole run: a different run, not a smaller one).
 */
import type { ShrinkFault } from './types.js';

/** the faults in units, in time order; a unit is removed or kept whole */
export function groupFaults(faults: readonly ShrinkFault[]): ShrinkFault[][] {
  const sorted = [...faults].sort((a, b) => a.at_ms - b.at_ms || a.id - b.id);
  const units: ShrinkFault[][] = [];
  const openPause = new Map<string, ShrinkFault[]>();
  for (const f of sorted) {
    const key = f.target_id ?? '';
    if (f.type === 'resume_agent' && openPause.has(key)) {
      openPause.get(key)!.push(f);
      openPause.delete(key);
      continue;
    }
    const unit = [f];
    units.push(unit);
    if (f.type === 'pause_agent') openPause.set(key, unit);
  }
  return units;
}
