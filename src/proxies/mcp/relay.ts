/**
 * One MCP session through the proxy: messages between the agent-facing SDK
 * server transport and the server-facing SDK client transport. A fault is a
 * decision taken here about a `tools/call` request; every other message,
 * in both directions, is passed on as it came.
 *
 * tool_timeout holds a call until its fault ends, then decides again (so a
 * call held past the fault is forwarded, late, like a tool that hung and
 * came back); a held or delayed call the agent cancels
 * (`notifications/cancelled`, which the SDK client sends when its request
 * timeout fires) is dropped and the server never sees it or the cancel.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { Clock, TimerHandle } from '../../shared/clock.js';
import type { ActiveToolFault, ToolFaultBook } from './faults.js';
import { changeResult, corruptSignature, driftTools, type ToolContentFault } from './tool-content.js';
import type { McpProxyStats } from './stats.js';
import type { ToolCallLog } from './tool-calls.js';

type Message = JSONRPCMessage & Record<string, unknown>;

export interface RelayOptions {
  book: ToolFaultBook;
  stats: McpProxyStats;
  clock: Clock;
  /** the agent's initialize, with the name it gave in `clientInfo` */
  onInitialize?: (clientName: string) => void;
  /** sending to the server failed: the agent gets an error answer, the mode may end the session */
  onUpstreamError?: (error: unknown) => void;
  /** where each tools/call is recorded (DESIGN §14) */
  calls?: ToolCallLog;
}

export interface SessionRelay {
  /** drops every held or delayed call: the session is going away */
  dropPending(): void;
}

const isRequest = (m: Message): boolean => typeof m.method === 'string' && m.id !== undefined;
const isResponse = (m: Message): boolean => m.method === undefined && m.id !== undefined;
const paramsOf = (m: Message): Record<string, unknown> =>
  typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : {};

export function relaySession(agent: Transport, server: Transport, options: RelayOptions): SessionRelay {
  const { book, stats, clock, calls: log } = options;
  // held or delayed calls, by request id, so a cancel or a close can drop them
  const pending = new Map<RequestId, () => void>();
  // progress tokens of requests in flight: a progress notification belongs on its request's stream
  const progress = new Map<string | number, RequestId>();
  let initializeId: RequestId | undefined;
  // once the session is closing, the upstream's aborted requests are our doing, not its errors
  let isClosed = false;
  // calls a tool_fault acts on when their answer comes back; tools/list requests a drift may change
  const changing = new Map<RequestId, ToolContentFault>();
  const listing = new Set<RequestId>();
  // duplicate_call's second calls: their answers go nowhere
  const duplicates = new Set<RequestId>();
  let duplicateSeq = 0;
  const unsubscribe = book.onListChanged(() => {
    stats.list_changed_sent++;
    toClient({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' } as Message);
  });

  const toClient = (message: Message, relatedRequestId?: RequestId) => {
    stats.messages_relayed.to_client++;
    if (log && isResponse(message)) log.end(message.id as RequestId, message);
    agent.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId }).catch(() => {
      // the agent's stream for this request is gone (it hung up or the session was reset): nothing to tell
    });
  };

  const toServer = (message: Message) => {
    stats.messages_relayed.to_server++;
    server.send(message).catch((error: unknown) => {
      if (isClosed) return;
      if (isRequest(message)) {
        stats.upstream_errors++;
        const text = error instanceof Error ? error.message : String(error);
        toClient({
          jsonrpc: '2.0',
          id: message.id as RequestId,
          error: { code: -32000, message: `MCP server unreachable through the arena proxy: ${text}` },
        } as Message);
      }
      options.onUpstreamError?.(error);
    });
  };

  const answer = (call: Message, fault: ActiveToolFault) => {
    stats.errors_injected++;
    const id = call.id as RequestId;
    log?.faulted(id);
    if (fault.mode === 'jsonrpc')
      toClient({ jsonrpc: '2.0', id, error: { code: fault.code, message: fault.message } } as Message);
    else
      toClient({
        jsonrpc: '2.0',
        id,
        result: { content: [{ type: 'text', text: fault.message }], isError: true },
      } as Message);
  };

  const dispatchCall = (call: Message) => {
    const id = call.id as RequestId;
    const name = typeof paramsOf(call).name === 'string' ? (paramsOf(call).name as string) : undefined;
    const fault = book.pick(name);
    if (!fault) {
      const quiet = book.pickContent(name);
      if (quiet) changing.set(id, quiet);
      if (quiet?.mode === 'duplicate_call') calls.set(id, call);
      return toServer(call);
    }
    if (fault.type === 'tool_error') return answer(call, fault);
    log?.faulted(id);
    if (fault.type === 'tool_timeout') {
      stats.calls_held.now++;
      stats.calls_held.total++;
      let isDropped = false;
      pending.set(id, () => {
        isDropped = true;
        stats.calls_held.now--;
        stats.calls_dropped++;
      });
      void fault.ended.then(() => {
        if (isDropped) return;
        pending.delete(id);
        stats.calls_held.now--;
        dispatchCall(call);
      });
      return;
    }
    // slow_tool: the call reaches the server after the delay, and is not slowed twice
    stats.calls_delayed++;
    let timer: TimerHandle | undefined;
    pending.set(id, () => {
      timer?.cancel();
      stats.calls_dropped++;
    });
    timer = clock.setTimer(fault.delayMs, () => {
      pending.delete(id);
      toServer(call);
    });
  };

  agent.onmessage = (raw, extra) => {
    const message = raw as Message;
    if (message.method === 'notifications/cancelled') {
      log?.drop(paramsOf(message).requestId as RequestId);
      const drop = pending.get(paramsOf(message).requestId as RequestId);
      if (drop) {
        pending.delete(paramsOf(message).requestId as RequestId);
        drop();
        return;
      }
    }
    if (isRequest(message)) {
      const token = (paramsOf(message)._meta as Record<string, unknown> | undefined)?.progressToken;
      if (typeof token === 'string' || typeof token === 'number') progress.set(token, message.id as RequestId);
      if (message.method === 'initialize') {
        initializeId = message.id as RequestId;
        const info = paramsOf(message).clientInfo as Record<string, unknown> | undefined;
        options.onInitialize?.(typeof info?.name === 'string' && info.name !== '' ? info.name : 'unnamed');
      }
      if (message.method === 'tools/call') {
        stats.tool_calls++;
        log?.begin(message.id as RequestId, paramsOf(message), extra?.requestInfo?.headers);
        // a marker in what the agent asks a tool to do: the changed value drove an action (§13.3)
        if (book.markers.isTracking) book.markers.scan(JSON.stringify(paramsOf(message)), 'drove_action');
        return dispatchCall(message);
      }
      if (message.method === 'tools/list') listing.add(message.id as RequestId);
    }
    toServer(message);
  };

  server.onmessage = (raw) => {
    const message = raw as Message;
    if (isResponse(message)) {
      const id = message.id as RequestId;
      // the HTTP client transport must send the version header the server agreed to, as the SDK Client does
      if (
        id === initializeId &&
        typeof (message.result as Record<string, unknown> | undefined)?.protocolVersion === 'string'
      ) {
        server.setProtocolVersion?.((message.result as Record<string, unknown>).protocolVersion as string);
      }
      for (const [token, requestId] of progress) if (requestId === id) progress.delete(token);
      if (duplicates.delete(id)) return;
      return toClient(quietly(message, id), id);
    }
    if (message.method === 'notifications/progress') {
      const related = progress.get(paramsOf(message).progressToken as string | number);
      if (related !== undefined) return toClient(message, related);
    }
    toClient(message);
  };

  /** a server answer as the quiet faults leave it (DESIGN §13.2) */
  const quietly = (message: Message, id: RequestId): Message => {
    const result = message.result as Record<string, unknown> | undefined;
    if (listing.delete(id)) {
      const drifts = book.drifts();
      if (drifts.length === 0 || !result) return message;
      stats.lists_drifted++;
      return { ...message, result: driftTools(drifts, result) };
    }
    const fault = changing.get(id);
    if (!fault) return message;
    changing.delete(id);
    if (!result) return message;
    if (fault.mode === 'duplicate_call') {
      log?.faulted(id);
      duplicate(id);
      return message;
    }
    const changed = changeResult(fault, result);
    if (!changed) return message;
    if (fault.mode === 'inject' && fault.canary) book.markers.add(fault.id, fault.canary, 'canary', 'mcp');
    if (fault.mode === 'corrupt') {
      const signature = corruptSignature(fault);
      if (JSON.stringify(changed).includes(signature)) book.markers.add(fault.id, signature, 'signature', 'mcp');
    }
    fault.changed++;
    stats.results_changed++;
    log?.faulted(id);
    return { ...message, result: changed };
  };

  // the call that just completed, sent upstream once more (is the tool idempotent?)
  const calls = new Map<RequestId, Message>();
  const duplicate = (id: RequestId) => {
    const call = calls.get(id);
    calls.delete(id);
    if (!call) return;
    const again = { ...call, id: `arena-duplicate-${++duplicateSeq}` } as Message;
    duplicates.add(again.id as RequestId);
    stats.duplicate_calls++;
    toServer(again);
  };

  return {
    dropPending() {
      isClosed = true;
      unsubscribe();
      log?.dropAll();
      for (const drop of pending.values()) drop();
      pending.clear();
      progress.clear();
    },
  };
}
