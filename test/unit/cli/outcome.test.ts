import { describe, expect, it } from 'vitest';
import { throwForOutcomes } from '../../../src/cli/run/outcome.js';
import { CancelledError, GateFailedError, RuntimeError, StoppedError } from '../../../src/shared/errors.js';

describe('throwForOutcomes', () => {
  it('passes when every run passed', () => {
    expect(() => throwForOutcomes([{ name: 'a', status: 'passed', verified: true }])).not.toThrow();
  });

  it('interrupted wins, names the reverted faults and the report file (exit 130)', () => {
    const runs = [
      { name: 'a', status: 'failed' as const, gate: { min_score: 90, score: 50, passed: false } },
      {
        name: 'b',
        status: 'interrupted' as const,
        reverted_faults: [{ id: 'f1', kind: 'pause', target: 'agent-2', started_at_ms: 0 }],
      },
    ];
    expect(() => throwForOutcomes(runs, 'out.json')).toThrow(CancelledError);
    expect(() => throwForOutcomes(runs, 'out.json')).toThrow(
      'interrupted; 1 active fault(s) reverted: pause on agent-2; partial report written to out.json',
    );
  });

  it('a run ended by arena stop is exit 130 too, and says it was stopped', () => {
    const runs = [
      { name: 'a', status: 'passed' as const },
      { name: 'b', status: 'stopped' as const, reverted_faults: [] },
    ];
    expect(() => throwForOutcomes(runs, 'out.json')).toThrow(StoppedError);
    expect(() => throwForOutcomes(runs, 'out.json')).toThrow(
      'stopped by arena stop; 0 active fault(s) reverted; partial report written to out.json',
    );
    expect(new StoppedError().exitCode).toBe(130);
  });

  it('a runtime error is exit 3, before any gate', () => {
    const e = (() => {
      try {
        throwForOutcomes([
          { name: 'a', status: 'error', error: 'target died' },
          { name: 'b', status: 'failed', verified: false, failed: 1 },
        ]);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(RuntimeError);
    expect((e as RuntimeError).exitCode).toBe(3);
    expect((e as Error).message).toBe('a: target died');
  });

  it('gates and expectations are exit 1 and say by how much', () => {
    const run = () =>
      throwForOutcomes([
        { name: 'a', status: 'failed', gate: { min_score: 85, score: 80.25, passed: false } },
        { name: 'b', status: 'failed', verified: false, failed: 2 },
      ]);
    expect(run).toThrow(GateFailedError);
    expect(run).toThrow('a: score 80.25 is 4.8 below the minimum 85; b: 2 expectation(s) not met');
  });
});
