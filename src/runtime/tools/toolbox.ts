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
import { changeResultText, matchesTool, type ToolResultFault } from './result-faults.js';

export class ToolTimeoutError extends RuntimeError {
  constructor(
    readonly tool: string,
    readonly timeoutMs: number,
    readonly attempts: number,
  ) {
    super(`tool "${tool}" timed out after ${timeoutMs}ms (${attempts} attempt${attempts === 1 ? '' : 's'})`, {
      code: 'tool_timeout',
    });
  }
}

/** a careful agent refused a tool result that is not what the tool promises (DESIGN §13.2) */
export class ToolResultError extends RuntimeError {
  constructor(
    readonly tool: string,
    reason: string,
  ) {
    super(`tool "${tool}" returned an unusable result: ${reason}`, { code: 'tool_result_invalid' });
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
  /** the careful agent: results are checked against the tool's promise and never used when they fail it; default true */
  validate?: boolean;
  /** told of every result a tool_fault changed, with the marker the change carries (§13.3) */
  onChanged?: (change: { fault_id: string; tool: string; marker?: string }) => void;
  /**
   * told of every call the agent sends, retries included, however it ends (the call ledger of trials, as
   * an MCP proxy in front of the tool would see it); a duplicate_call's second run is the fault's, not the agent's
   */
  onAttempt?: (attempt: ToolAttempt) => void;
}

export interface ToolAttempt {
  tool: string;
  /** the arguments as the agent sent them */
  args: Record<string, unknown>;
  /** epoch milliseconds (the clock's wall time) */
  started_ms: number;
  ended_ms: number;
  /** the agent got a result it used */
  ok: boolean;
  /** a fault acted on this call (the tool hung, its result was changed, it was run twice) */
  faulted: boolean;
}

export interface ToolStats {
  calls: number;
  succeeded: number;
  failed: number;
  /** attempts that hit the deadline */
  timeouts: number;
  retries: number;
}

/** what tool_fault did to this toolbox's results and how the agent took it */
export interface ToolResultStats {
  /** results a fault changed */
  changed: number;
  /** changed results the agent refused (validation on) */
  rejected: number;
  /** changed results the agent used as if they were right (validation off, or a change validation cannot see) */
  used: number;
  /** calls run a second time by duplicate_call */
  duplicated: number;
  /** calls the agent sent under a drifted schema's new field names (it re-read the tool list) */
  relisted: number;
}

export interface Toolbox {
  call(name: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<unknown>;
  list(): Array<{ name: string; description: string }>;
  setHanging(on: boolean): void;
  readonly isHanging: boolean;
  configure(patch: { timeoutMs?: number; retries?: number; validate?: boolean }): void;
  readonly timeoutMs: number;
  readonly retries: number;
  stats(): ToolStats;
  /** tool_fault: results come back changed until it is cleared (undefined); the newest fault wins */
  setResultFault(fault: ToolResultFault | undefined): void;
  readonly resultFault: ToolResultFault | undefined;
  resultStats(): ToolResultStats;
}

export function createToolbox(options: ToolboxOptions = {}): Toolbox {
  const clock = options.clock ?? systemClock;
  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools ?? BUILTIN_TOOLS) {
    if (tools.has(tool.name)) throw new UsageError(`tool "${tool.name}" is defined twice`, { code: 'duplicate_tool' });
    tools.set(tool.name, tool);
  }
  let timeoutMs = 1000;
  let retries = 1;
  let hanging = false;
  let validate = options.validate ?? true;
  let fault: ToolResultFault | undefined;
  const stats: ToolStats = { calls: 0, succeeded: 0, failed: 0, timeouts: 0, retries: 0 };
  const results: ToolResultStats = { changed: 0, rejected: 0, used: 0, duplicated: 0, relisted: 0 };

  const configure = (patch: { timeoutMs?: number; retries?: number; validate?: boolean }) => {
    if (patch.validate !== undefined) validate = patch.validate;
    if (patch.timeoutMs !== undefined) {
      if (!Number.isFinite(patch.timeoutMs) || patch.timeoutMs <= 0)
        throw new UsageError(`tool timeoutMs must be a positive number, got ${patch.timeoutMs}`, {
          code: 'invalid_tool_config',
        });
      timeoutMs = patch.timeoutMs;
    }
    if (patch.retries !== undefined) {
      if (!Number.isInteger(patch.retries) || patch.retries < 0)
        throw new UsageError(`tool retries must be a non-negative integer, got ${patch.retries}`, {
          code: 'invalid_tool_config',
        });
      retries = patch.retries;
    }
  };
  configure({ timeoutMs: options.timeoutMs, retries: options.retries });

  /** the tools the agent can see: a schema_drift may hide some */
  const listed = () =>
    [...tools.keys()].filter((name) => !(fault?.mode === 'schema_drift' && fault.hide.includes(name)));

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

  /** what the agent makes of a result's text: the careful one parses and checks it, the naive one takes it as it is */
  const read = (tool: ToolDefinition, text: string): unknown => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (validate) throw new ToolResultError(tool.name, text === '' ? 'empty' : 'not the JSON the tool answers in');
      return text;
    }
    const problem = validate ? tool.output?.(value) : undefined;
    if (problem) throw new ToolResultError(tool.name, problem);
    return value;
  };

  /** schema_drift: the arguments as the drifted tool takes them, mapped back to what the tool reads */
  const drifted = (tool: ToolDefinition, args: Record<string, unknown>): Record<string, unknown> => {
    const renames = fault?.mode === 'schema_drift' ? fault.rename[tool.name] : undefined;
    if (!renames) return args;
    // the careful agent re-read the tool list after list_changed and sends the new names
    const sent = validate ? renameKeys(args, renames) : args;
    if (validate) results.relisted++;
    for (const [from, to] of Object.entries(renames)) {
      if (!Object.hasOwn(sent, to))
        throw new UsageError(
          `${tool.name}: argument "${to}" is required (the tool's input field "${from}" is now "${to}")`,
          { code: 'invalid_tool_args' },
        );
    }
    return renameKeys(sent, Object.fromEntries(Object.entries(renames).map(([from, to]) => [to, from])));
  };

  return {
    async call(name, args = {}, signal) {
      const tool = tools.get(name);
      const active = fault && matchesTool(fault, name) ? fault : undefined;
      if (!tool || (fault?.mode === 'schema_drift' && fault.hide.includes(name))) {
        // sent all the same, and refused: a proxy in front of the tools would have seen it
        const now = clock.wallNow().getTime();
        options.onAttempt?.({
          tool: name,
          args,
          started_ms: now,
          ended_ms: now,
          ok: false,
          faulted: tool !== undefined,
        });
        throw new NotFoundError(`unknown tool "${name}" (available: ${listed().join(', ')})`, { code: 'unknown_tool' });
      }
      stats.calls++;
      for (let n = 0; ; n++) {
        const started_ms = clock.wallNow().getTime();
        let faulted = hanging;
        const told = (ok: boolean) =>
          options.onAttempt?.({ tool: name, args, started_ms, ended_ms: clock.wallNow().getTime(), ok, faulted });
        try {
          const input = drifted(tool, args);
          let value = await attempt(tool, input, signal);
          if (active?.mode === 'duplicate_call') {
            faulted = true;
            results.duplicated++;
            await attempt(tool, input, signal).catch(() => undefined);
          }
          const changed = active ? changeResultText(active, JSON.stringify(value) ?? '', results.changed) : undefined;
          if (changed && active) {
            faulted = true;
            results.changed++;
            options.onChanged?.({
              fault_id: active.id,
              tool: name,
              ...(changed.marker ? { marker: changed.marker } : {}),
            });
            value = read(tool, changed.text);
            results.used++;
          }
          stats.succeeded++;
          told(true);
          return value;
        } catch (error) {
          told(false);
          if (error instanceof ToolTimeoutError || error instanceof ToolResultError) {
            if (error instanceof ToolTimeoutError) stats.timeouts++;
            else results.rejected++;
            if (n < retries && !signal?.aborted) {
              stats.retries++;
              continue;
            }
            stats.failed++;
            throw error instanceof ToolTimeoutError ? new ToolTimeoutError(tool.name, timeoutMs, n + 1) : error;
          }
          stats.failed++;
          throw error;
        }
      }
    },
    list: () =>
      [...tools.values()]
        .filter((t) => listed().includes(t.name))
        .map(({ name, description }) => ({ name, description })),
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
    setResultFault(next) {
      fault = next;
    },
    get resultFault() {
      return fault;
    },
    resultStats: () => ({ ...results }),
  };
}

function renameKeys(args: Record<string, unknown>, renames: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [renames[k] ?? k, v]));
}
