/**
 * POST /arena/survival's port: a request the run refuses before it starts is the caller's error,
 * even when telling takes a while (a stop condition checked against a remote target's agents);
 * a run that has started answers at once with its status.
 */
import { describe, expect, it } from 'vitest';
import type { ArenaService } from '../../../src/arena/service.js';
import type { Target } from '../../../src/arena/providers.js';
import type { SurvivalOptions } from '../../../src/arena/survival/run.js';
import { createSurvivalPort } from '../../../src/bootstrap/survival.js';
import { UsageError } from '../../../src/shared/errors.js';

const target = { describe: async () => ({ strategy: {} }), unsupportedFaults: () => ({}) } as unknown as Target;

function service(run: (options: SurvivalOptions, state: { running: boolean }) => Promise<unknown>): ArenaService {
  const state = { running: false };
  return {
    getSurvivalStatus: () => ({ running: state.running }),
    runSurvival: (options: SurvivalOptions) => run(options, state),
  } as unknown as ArenaService;
}

describe('createSurvivalPort', () => {
  it('a refusal that comes after a round trip (not within one turn of the event loop) still rejects start', async () => {
    const port = createSurvivalPort(
      service(async () => {
        await new Promise((r) => setTimeout(r, 30));
        throw new UsageError('stop_when probe_failures: the target has no agent "agent-99"');
      }),
      target,
    );
    await expect(port.start({ duration: '1s', interval: '100ms' })).rejects.toThrow('no agent "agent-99"');
  });

  it('a run that has started answers with its status without waiting for its end', async () => {
    let finish = () => {};
    const port = createSurvivalPort(
      service(async (options, state) => {
        await new Promise((r) => setTimeout(r, 30));
        state.running = true;
        options.onEvent?.({ type: 'run.started' } as never);
        await new Promise<void>((r) => (finish = r));
        state.running = false;
      }),
      target,
    );
    await expect(port.start({ duration: '1s', interval: '100ms' })).resolves.toEqual({ running: true });
    finish();
    await port.settled();
    expect(port.isRunning).toBe(false);
  });
});
