/**
 * One CallRecord per `tools/call` through the MCP proxy (DESIGN §14): the
 * tool, a hash of its arguments (sha256 of their canonical JSON, so key order
 * does not matter and the arguments themselves are not kept), who sent it
 * (the attribution headers, over streamable HTTP; stdio has no headers), and
 * how it ended for the agent: a result without `isError` is ok, a JSON-RPC
 * error, an `isError` result, a cancel or a closed session is not.
 */
import type { CallLedger, NewCall } from '../../protocol/calls.js';
import type { Clock } from '../../shared/clock.js';
import { canonicalHash } from '../../shared/canonical-json.js';
import { attribution, clip, type Attribution } from '../attribution.js';

type Id = string | number;

export interface ToolCallLog {
  /** a `tools/call` from the agent; `headers` of the HTTP request that carried it, when there was one */
  begin(id: Id, params: Record<string, unknown>, headers?: Record<string, string | string[] | undefined>): void;
  /** a fault acted on this call (an error answered, held, delayed, result changed, duplicated) */
  faulted(id: Id): void;
  /** the answer the agent gets for `id` (a JSON-RPC response); ignored for ids that are not open tool calls */
  end(id: Id, message: Record<string, unknown>): void;
  /** never answered: the agent cancelled it */
  drop(id: Id): void;
  /** the session ended: every call still open ends unanswered */
  dropAll(): void;
}

interface Open {
  started_ms: number;
  tool?: string;
  args_hash: string;
  who: Attribution;
  isFaulted: boolean;
}

/** most calls open at once per session: an agent that never waits for answers cannot grow the proxy */
const MAX_OPEN = 10_000;

export function createToolCallLog(options: { ledger: CallLedger; clock: Clock; agent?: string }): ToolCallLog {
  const open = new Map<Id, Open>();
  const now = () => options.clock.wallNow().getTime();
  const close = (id: Id, ok: boolean) => {
    const call = open.get(id);
    if (!call) return;
    open.delete(id);
    const record: NewCall = {
      kind: 'tool',
      ...(options.agent !== undefined ? { agent: options.agent } : {}),
      started_ms: call.started_ms,
      ended_ms: now(),
      ...call.who,
      ok,
      faulted: call.isFaulted,
      ...(call.tool !== undefined ? { tool: call.tool } : {}),
      args_hash: call.args_hash,
    };
    options.ledger.record(record);
  };
  return {
    begin(id, params, headers) {
      if (open.size >= MAX_OPEN) close(open.keys().next().value as Id, false);
      open.set(id, {
        started_ms: now(),
        ...(typeof params.name === 'string' ? { tool: clip(params.name) } : {}),
        args_hash: canonicalHash(params.arguments ?? {}),
        who: headers ? attribution({ headers }) : {},
        isFaulted: false,
      });
    },
    faulted(id) {
      const call = open.get(id);
      if (call) call.isFaulted = true;
    },
    end(id, message) {
      const result = message.result as Record<string, unknown> | undefined;
      close(
        id,
        message.error === undefined && typeof result === 'object' && result !== null && result.isError !== true,
      );
    },
    drop: (id) => close(id, false),
    dropAll() {
      for (const id of [...open.keys()]) close(id, false);
    },
  };
}
