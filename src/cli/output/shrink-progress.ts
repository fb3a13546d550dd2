/**
 * `arena shrink`'s progress on stderr: the candidate being tried, the size of the smallest failing set
 * confirmed so far and the runs spent. On a terminal (not CI) it is one line redrawn in place, and each
 * smaller failing set is printed above it as it is confirmed, so Ctrl-C leaves the latest on screen;
 * elsewhere (CI logs, a pipe) every candidate is a line of its own.
 */
import type { Schedule, ShrinkProgress } from '../../arena/shrink/index.js';
import type { CliContext } from '../context.js';

const SHOWN_LABELS = 4;
const CLEAR_LINE = '\r\x1b[2K';

export interface ShrinkProgressReporter {
  progress(p: ShrinkProgress): void;
  smaller(schedule: Schedule, of: number): void;
  /** clears the live line before the result is printed */
  done(): void;
}

export function formatShrinkProgress(p: ShrinkProgress): string {
  const line = `shrink: ${p.phase} · candidate ${p.candidates} · size ${p.size} · runs ${p.runs}`;
  return p.trying === undefined ? line : `${line} · trying ${p.trying.length}: ${listLabels(p.trying)}`;
}

function listLabels(labels: readonly string[]): string {
  const shown = labels.slice(0, SHOWN_LABELS).join(', ');
  return labels.length > SHOWN_LABELS ? `${shown} (+${labels.length - SHOWN_LABELS} more)` : shown;
}

export function shrinkProgressReporter(ctx: Pick<CliContext, 'stderr' | 'env'>): ShrinkProgressReporter {
  const stderr = ctx.stderr as NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  const isLive = stderr.isTTY === true && !ctx.env.CI;
  let live = '';
  let lastSize: number | undefined;
  const redraw = () => {
    if (!isLive) return;
    // one terminal row: a line that wraps could not be cleared by the next redraw
    const width = Math.max(20, (stderr.columns ?? 80) - 1);
    stderr.write(`${CLEAR_LINE}${live.length > width ? `${live.slice(0, width - 1)}…` : live}`);
  };
  const above = (line: string) => stderr.write(isLive ? `${CLEAR_LINE}${line}\n` : `${line}\n`);
  return {
    progress(p) {
      live = formatShrinkProgress(p);
      if (isLive) redraw();
      else stderr.write(`${live}\n`);
    },
    smaller(schedule, of) {
      // compression confirms schedules of the same size: said once per size
      if (schedule.faults.length === lastSize) return;
      lastSize = schedule.faults.length;
      above(
        `shrink: still fails with ${schedule.faults.length} of ${of} fault(s): ${listLabels(schedule.faults.map((f) => f.label))}`,
      );
      redraw();
    },
    done() {
      if (isLive && live !== '') stderr.write(CLEAR_LINE);
      live = '';
    },
  };
}
