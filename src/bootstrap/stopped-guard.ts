/**
 * The arena's view of the target's providers, refusing every fault while the
 * runtime is stopped: killing or pausing agents of a stopped runtime changes
 * nothing observable, so it must come back as `success: false` with the
 * reason, never as an "ok" the score would then count as survived. Reads
 * (agents, nodes, active faults) and reverts pass through.
 */
import { RuntimeError } from '../shared/errors.js';
import type { DAGProvider, RuntimeProvider } from '../arena/providers.js';

const PASS_THROUGH = new Set<PropertyKey>(['listAgents', 'activeFaults', 'revertAll', 'listNodes', 'listEdges']);

export function stoppedRuntimeError(): RuntimeError {
  return new RuntimeError(
    'the runtime is stopped: the fault cannot be applied (start it with POST /api/v1/runtime/start)',
    { code: 'runtime_stopped' },
  );
}

/** `provider` with every fault method refused while `isRunning()` is false */
export function refuseWhileStopped<T extends RuntimeProvider | DAGProvider>(provider: T, isRunning: () => boolean): T {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function' || PASS_THROUGH.has(key))
        return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        if (!isRunning()) return Promise.reject(stoppedRuntimeError());
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
