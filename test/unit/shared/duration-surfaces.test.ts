/** The 24 h cap holds on every surface a duration comes in through (DESIGN §3). */
import { describe, expect, it } from 'vitest';
import { parseAction } from '../../../src/arena/actions.js';
import { parseStrategyText } from '../../../src/runtime/strategy.js';
import { resolveSurvivalConfig } from '../../../src/arena/survival/run.js';
import { parseFaultRequest } from '../../../src/protocol/wire.js';
import { runWith } from '../../../src/cli/main.js';
import { UsageError } from '../../../src/shared/errors.js';

describe('durations over 24h are refused everywhere', () => {
  it('HTTP action bodies: 400 naming the field', () => {
    const call = () =>
      parseAction({ type: 'slow_agent', target_id: 'agent-2', metadata: { duration: '99999h' } }, 'body');
    expect(call).toThrow(UsageError);
    expect(call).toThrow(/body\.metadata\.duration: duration "99999h" is longer than the 24h limit/);
    expect(() => parseAction({ type: 'pause_agent', target_id: 'agent-2', metadata: { duration: '1h1h' } })).toThrow(
      /units must each appear once/,
    );
  });

  it('strategy files', () => {
    expect(() => parseStrategyText('supervisor:\n  window_ms: 25h\n', 's.yaml')).toThrow(
      /window_ms.*longer than the 24h limit/,
    );
  });

  it('survival options (CLI and HTTP)', () => {
    expect(() => resolveSurvivalConfig({ duration: '99999h', interval: '1s' })).toThrow(
      /duration: duration "99999h" is longer than the 24h limit/,
    );
  });

  it('the target protocol wire', () => {
    expect(() => parseFaultRequest({ id: 'x', type: 'kill_agent', duration_ms: 86_400_001, lease_ms: 1000 })).toThrow(
      /duration_ms/,
    );
  });

  it('CLI flags exit 2 with the reason', async () => {
    let err = '';
    const code = await runWith(['survival', '--duration', '99999h'], {
      stdout: { write: () => undefined },
      stderr: { write: (s: string) => (err += s) },
      env: {},
      cwd: process.cwd(),
      signal: new AbortController().signal,
    });
    expect(code).toBe(2);
    expect(err).toContain('duration "99999h" is longer than the 24h limit');
  });
});
