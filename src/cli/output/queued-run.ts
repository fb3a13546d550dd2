/** A run on the queue in a few words, for the worker's log: `baseline run 3 (seed 7, take 1)`. */
import type { QueuedRequest } from '../../arena/queue/queue.js';

export function describeRun(r: QueuedRequest, attempt: number): string {
  const on = r.kind !== 'regress' && r.target.file ? `, ${r.target.file}` : '';
  switch (r.kind) {
    case 'regress':
      return `${r.arm} run ${r.run + 1} (seed ${r.seed}, take ${attempt})`;
    case 'trial':
      return `trials round ${r.round + 1} (${r.blocks.map((b) => b.arm.name).join(', ')}; seed ${r.seed}${on}, take ${attempt})`;
    case 'shrink':
      return `shrink run of ${r.scenario.actions.length} fault(s) (seed ${r.seed}${on}, take ${attempt})`;
  }
}
