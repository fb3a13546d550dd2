import { describe, expect, it } from 'vitest';
import type { ShrinkFault } from '../../../src/arena/shrink/index.js';
import { formatShrinkProgress, shrinkProgressReporter } from '../../../src/cli/output/shrink-progress.js';

const fault = (id: number): ShrinkFault => ({ id, label: `f${id}`, type: 'kill_agent', target_id: 'a', at_ms: 0 });

function stderr(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, stream: { isTTY, columns: 200, write: (s: string) => chunks.push(s) > 0 } };
}

describe('shrink progress', () => {
  it('names the candidate being tried, the size so far and the runs spent', () => {
    const p = { phase: 'search' as const, candidates: 7, size: 3, runs: 18, trying: ['a', 'b', 'c', 'd', 'e', 'f'] };
    expect(formatShrinkProgress(p)).toBe(
      'shrink: search · candidate 7 · size 3 · runs 18 · trying 6: a, b, c, d (+2 more)',
    );
  });

  it('in CI or a pipe, one line per candidate and one per smaller failing set', () => {
    const err = stderr(false);
    const r = shrinkProgressReporter({ stderr: err.stream as never, env: { CI: '1' } });
    r.progress({ phase: 'reproduce', candidates: 1, size: 2, runs: 0, trying: ['f0', 'f1'] });
    r.smaller({ faults: [fault(0), fault(1)], cooldown_ms: 0 }, 2);
    r.smaller({ faults: [fault(0), fault(1)], cooldown_ms: 0 }, 2);
    r.done();
    expect(err.chunks).toEqual([
      'shrink: reproduce · candidate 1 · size 2 · runs 0 · trying 2: f0, f1\n',
      'shrink: still fails with 2 of 2 fault(s): f0, f1\n',
    ]);
  });

  it('on a terminal, redraws one live line and prints each smaller set above it', () => {
    const err = stderr(true);
    const r = shrinkProgressReporter({ stderr: err.stream as never, env: {} });
    r.progress({ phase: 'search', candidates: 2, size: 2, runs: 2, trying: ['f0'] });
    r.smaller({ faults: [fault(0)], cooldown_ms: 0 }, 2);
    r.done();
    const out = err.chunks.join('');
    expect(out).not.toContain('candidate 2 · size 2 · runs 2 · trying 1: f0\n');
    expect(out).toContain('\r\x1b[2Kshrink: still fails with 1 of 2 fault(s): f0\n');
    expect(out.endsWith('\r\x1b[2K')).toBe(true);
  });
});
