/**
 * The MCP proxy's fault types (DESIGN §10.3) and the book of active tool
 * faults the relay consults on every `tools/call`. A fault request is
 * validated whole here (unknown params, wrong types: 400; a type this proxy
 * does not have: 422) before anything is applied.
 */
import type { AppliedFault, FaultApplier } from '../../protocol/fault-registry.js';
import { MAX_DURATION_MS, badRequest, unsupported, type FaultRequest } from '../../protocol/wire.js';
import { parseToolFault, type ToolContentFault } from './tool-content.js';
import { createMarkerBook, type MarkerBook } from '../../protocol/markers.js';

export const MCP_FAULT_TYPES = ['mcp_disconnect', 'tool_timeout', 'tool_error', 'slow_tool', 'tool_fault'] as const;
export type McpFaultType = (typeof MCP_FAULT_TYPES)[number];

export type ToolErrorMode = 'jsonrpc' | 'is_error';
/** JSON-RPC "Internal error": what a server that threw inside a tool handler answers */
export const DEFAULT_TOOL_ERROR_CODE = -32603;
/** like slow_agent's default delay (DESIGN §3) */
export const DEFAULT_SLOW_TOOL_DELAY_MS = 5000;

/** A tool fault while it is active. `ended` settles when it is reverted, which is what releases held calls. */
export interface ActiveToolFault {
  id: string;
  type: Exclude<McpFaultType, 'mcp_disconnect' | 'tool_fault'>;
  /** only calls of this tool; every tool when absent */
  tool?: string;
  mode: ToolErrorMode;
  code: number;
  message: string;
  delayMs: number;
  ended: Promise<void>;
}

// a call is answered with an error before it would be held, and held before it is slowed
const PRECEDENCE: Record<ActiveToolFault['type'], number> = { tool_error: 0, tool_timeout: 1, slow_tool: 2 };

export interface ToolFaultBook {
  /** the fault that decides a call of `tool` now, if any */
  pick(tool: string | undefined): ActiveToolFault | undefined;
  add(fault: ActiveToolFault, end: () => void): () => void;
  size(): number;
  /** the tool_fault (not schema_drift) that changes a call of `tool` now, if any */
  pickContent(tool: string | undefined): ToolContentFault | undefined;
  /** schema_drift faults acting on tools/list now */
  drifts(): ToolContentFault[];
  addContent(fault: ToolContentFault): () => void;
  /** each session's way to tell its agent the tool list changed; returns the unsubscribe */
  onListChanged(listener: () => void): () => void;
  readonly seed: number;
  /** the markers tool_fault plants and the agents' later tool calls are scanned for (DESIGN §13.3) */
  readonly markers: MarkerBook;
}

export function createToolFaultBook(seed = 0, markers: MarkerBook = createMarkerBook()): ToolFaultBook {
  const active = new Map<string, ActiveToolFault>();
  const content = new Map<string, ToolContentFault>();
  const listeners = new Set<() => void>();
  const listChanged = () => {
    for (const listener of [...listeners]) listener();
  };
  return {
    seed,
    markers,
    pickContent(tool) {
      for (const f of content.values()) if (f.mode !== 'schema_drift' && f.matches(tool)) return f;
      return undefined;
    },
    drifts: () => [...content.values()].filter((f) => f.mode === 'schema_drift'),
    addContent(fault) {
      content.set(fault.id, fault);
      // the agents are told the list changed when the drift starts and when it ends, as a server would
      if (fault.mode === 'schema_drift') listChanged();
      return () => {
        if (!content.delete(fault.id)) return;
        if (fault.mode === 'schema_drift') listChanged();
      };
    },
    onListChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pick(tool) {
      let best: ActiveToolFault | undefined;
      for (const fault of active.values()) {
        if (fault.tool !== undefined && fault.tool !== tool) continue;
        if (!best || PRECEDENCE[fault.type] < PRECEDENCE[best.type]) best = fault;
      }
      return best;
    },
    add(fault, end) {
      active.set(fault.id, fault);
      return () => {
        active.delete(fault.id);
        end();
      };
    },
    size: () => active.size,
  };
}

const PARAMS: Record<McpFaultType, readonly string[]> = {
  mcp_disconnect: [],
  tool_timeout: ['tool'],
  tool_error: ['tool', 'mode', 'message', 'code'],
  slow_tool: ['tool', 'delay_ms'],
  tool_fault: ['mode', 'tool', 'keep', 'payload', 'hide', 'rename'],
};

export interface McpFaultHooks {
  /** closes every open session for real (mode-specific) and says what it did */
  disconnect(request: FaultRequest): Promise<AppliedFault> | AppliedFault;
  book: ToolFaultBook;
}

/** The registry's applier for the four MCP fault types. */
export function mcpFaultApplier(hooks: McpFaultHooks): FaultApplier {
  return async (request) => {
    const type = request.type as McpFaultType;
    if (!MCP_FAULT_TYPES.includes(type)) {
      throw unsupported(
        `type: the MCP proxy has no fault ${JSON.stringify(request.type)} (it takes ${MCP_FAULT_TYPES.join(', ')})`,
      );
    }
    const allowed = PARAMS[type];
    for (const key of Object.keys(request.params)) {
      if (!allowed.includes(key)) {
        throw badRequest(`params.${key}: ${type} takes ${allowed.length ? allowed.join(', ') : 'no params'}`);
      }
    }
    if (type === 'mcp_disconnect') return hooks.disconnect(request);
    if (type === 'tool_fault') {
      const fault = parseToolFault(request, hooks.book.seed);
      const revert = hooks.book.addContent(fault);
      const report: Record<string, unknown> = { type, mode: fault.mode, tool: fault.tool };
      if (fault.canary !== undefined) report.canary = fault.canary;
      if (fault.mode === 'schema_drift') Object.assign(report, { hide: fault.hide, rename: fault.rename });
      return { report, revert };
    }
    const fault = toolFault(request, type);
    let end!: () => void;
    fault.ended = new Promise<void>((resolve) => (end = resolve));
    const revert = hooks.book.add(fault, end);
    const report: Record<string, unknown> = { type, tool: fault.tool ?? '*' };
    if (type === 'tool_error')
      Object.assign(report, { mode: fault.mode }, fault.mode === 'jsonrpc' ? { code: fault.code } : {});
    if (type === 'slow_tool') report.delay_ms = fault.delayMs;
    if (type === 'tool_timeout')
      report.held_until = request.duration_ms === undefined ? 'fault removed or lease ends' : 'duration ends';
    return { report, revert };
  };
}

function toolFault(request: FaultRequest, type: ActiveToolFault['type']): ActiveToolFault {
  const p = request.params;
  const fault: ActiveToolFault = {
    id: request.id,
    type,
    mode: 'is_error',
    code: DEFAULT_TOOL_ERROR_CODE,
    message: `tool_error injected by chaos arena (fault ${request.id})`,
    delayMs: DEFAULT_SLOW_TOOL_DELAY_MS,
    ended: Promise.resolve(),
  };
  if (p.tool !== undefined) {
    if (typeof p.tool !== 'string' || p.tool === '') throw badRequest('params.tool: expected a tool name');
    fault.tool = p.tool;
  }
  if (p.mode !== undefined) {
    if (p.mode !== 'jsonrpc' && p.mode !== 'is_error')
      throw badRequest(
        'params.mode: expected "jsonrpc" (a JSON-RPC error) or "is_error" (a result with isError: true)',
      );
    fault.mode = p.mode;
  }
  if (p.message !== undefined) {
    if (typeof p.message !== 'string' || p.message === '')
      throw badRequest('params.message: expected a non-empty string');
    fault.message = p.message;
  }
  if (p.code !== undefined) {
    if (typeof p.code !== 'number' || !Number.isInteger(p.code))
      throw badRequest('params.code: expected an integer JSON-RPC error code');
    if (fault.mode !== 'jsonrpc') throw badRequest('params.code: only with mode "jsonrpc"');
    fault.code = p.code;
  }
  if (p.delay_ms !== undefined) {
    if (
      typeof p.delay_ms !== 'number' ||
      !Number.isInteger(p.delay_ms) ||
      p.delay_ms < 0 ||
      p.delay_ms > MAX_DURATION_MS
    ) {
      throw badRequest(`params.delay_ms: expected whole milliseconds from 0 to ${MAX_DURATION_MS}`);
    }
    fault.delayMs = p.delay_ms;
  }
  return fault;
}
