/** A run on the queue in a few words, for the worker's log. */
import type { QueuedRequest } from '../../arena/queue/queue.js';

export function describeRun(r: QueuedRequest): string {
  switch (r.kind) {
    case 'regress':
      return `${r.arm} run ${r.run + 1} (seed ${r.seed})`;
    case 'trial':
      return `trials ${r.block.arm.name} block, round ${r.block.round + 1} (${r.block.tasks.length} task(s), seed ${r.seed}${r.target.file ? `, ${r.target.file}` : ''})`;
    case 'shrink':
      return `shrink candidate of ${r.scenario.actions.length} fault(s) (seed ${r.seed}${r.target.file ? `, ${r.target.file}` : ''})`;
  }
}
