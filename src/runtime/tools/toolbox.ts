/**
 * An agent's toolbox: every call is bounded by `timeoutMs` on the injected
 * clock, the tool gets an AbortSignal that fires at the deadline, and a
 * timed-out call is retried up to `retries` times. `setHanging(true)` is the
 * `tool_timeout` fault: calls no longer reach the tool and hang until their
 * deadline, exactly like a tool backend that stopped answering.
 */
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { CancelledError, NotFoundError, RuntimeError, UsageError } from '../../shared/errors.js';
import { BUILTIN_TOOLS, type ToolDefinition } from './builtin.js';

export class ToolTimeoutError extends RuntimeError {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(
      `tool "${tool}" timed out after ${timeoutMs}ms (${attempts} attempt${attempts === 1 ? '' : 's'})`,
      'tool_timeout',
    );
  }
}

export interface ToolboxOptions {
  clock?: Clock;
  /** per-attempt deadline; default 1000 */
  timeoutMs?: number;
  /** extra attempts after a timeout; default 1 */
  retries?: number;
  /** replaces the built-in tools */
  tools?: readonly ToolDefinition[];
}

export interface ToolStats {
  calls: number;
  succeeded: number;
  failed: number;
  /** attempts that hit the deadline */
  timeouts: number;
  retries: number;
}

export interface Toolbox {
  call(name: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  list(): Array<{ name: string; description: string }>;
  setHanging(on: boolean): void;
  readonly isHanging: boolean;
  configure(patch: { timeoutMs?: number; retries?: number }): void;
  readonly timeoutMs: number;
  readonly retries: number;
  stats(): ToolStats;
}

export function createToolbox(options: ToolboxOptions = {}): Toolbox {
  const clock = options.clock ?? systemClock;
  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools ?? BUILTIN_TOOLS) {
    if (tools.has(tool.name)) throw new UsageError(`tool "${tool.name}" is defined twice`, 'duplicate_tool');
    tools.set(tool.name, tool);
  }
  let timeoutMs = 1000;
  let retries = 1;
  let hanging = false;
  const stats: ToolStats = { calls: 0, succeeded: 0, failed: 0, timeouts: 0, retries: 0 };

  const configure = (patch: { timeoutMs?: number; retries?: number }) => {
    if (patch.timeoutMs !== undefined) {
      if (!Number.isFinite(patch.timeoutMs) || patch.timeoutMs <= 0)
        throw new UsageError(`tool timeoutMs must be a positive number, got ${patch.timeoutMs}`, 'invalid_tool_config');
      timeoutMs = patch.timeoutMs;
    }
    if (patch.retries !== undefined) {
      if (!Number.isInteger(patch.retries) || patch.retries < 0)
        throw new UsageError(
          `tool retries must be a non-negative integer, got ${patch.retries}`,
          'invalid_tool_config',
        );
      retries = patch.retries;
    }
  };
  configure({ timeoutMs: options.timeoutMs, retries: options.retries });

  /** one attempt; resolves with the result or rejects with the tool's error, a timeout marker or the caller's abort */
  const attempt = (tool: ToolDefinition, args: Record<string, unknown>, outer?: AbortSignal) =>
    new Promise<unknown>((resolve, reject) => {
      const controller = new AbortController();
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        timer.cancel();
        outer?.removeEventListener('abort', onOuterAbort);
        fn();
      };
      const timer = clock.setTimer(timeoutMs, () => {
        const error = new ToolTimeoutError(tool.name, timeoutMs, 1);
        finish(() => reject(error));
        controller.abort(error);
      });
      const onOuterAbort = () => {
        const reason =
          outer!.reason instanceof Error ? outer!.reason : new CancelledError(`tool "${tool.name}" call cancelled`);
        finish(() => reject(reason));
        controller.abort(reason);
      };
      if (outer?.aborted) return onOuterAbort();
      outer?.addEventListener('abort', onOuterAbort, { once: true });
      // the fault: the call never reaches the tool; only the deadline ends it
      const work = hanging
        ? new Promise<unknown>(() => undefined)
        : Promise.resolve().then(() => tool.run(args, { signal: controller.signal, clock }));
      work.then(
        (value) => finish(() => resolve(value)),
        (error) => finish(() => reject(error)),
      );
    });

  return {
    async call(name, args = {}, signal) {
      const tool = tools.get(name);
      if (!tool)
        throw new NotFoundError(`unknown tool "${name}" (available: ${[...tools.keys()].join(', ')})`, 'unknown_tool');
      stats.calls++;
      for (let n = 0; ; n++) {
        try {
          const value = await attempt(tool, args, signal);
          stats.succeeded++;
          return value;
        } catch (error) {
          if (error instanceof ToolTimeoutError) {
            stats.timeouts++;
            if (n < retries && !signal?.aborted) {
              stats.retries++;
              continue;
            }
            stats.failed++;
            throw new ToolTimeoutError(tool.name, timeoutMs, n + 1);
          }
          stats.failed++;
          throw error;
        }
      }
    },
    list: () => [...tools.values()].map(({ name, description }) => ({ name, description })),
    setHanging(on) {
      hanging = on;
    },
    get isHanging() {
      return hanging;
    },
    configure,
    get timeoutMs() {
      return timeoutMs;
    },
    get retries() {
      return retries;
    },
    stats: () => ({ ...stats }),
  };
}
