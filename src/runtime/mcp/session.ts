/**
 * An MCP client session with the official SDK. `disconnect()` is the
 * `mcp_disconnect` fault: it closes the live transport, so calls fail until a
 * new connection is up. When the connection is lost for any reason (the fault,
 * a server process exiting) and reconnect is enabled, the session reconnects
 * with exponential backoff on the injected clock.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Clock, TimerHandle } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import { RuntimeError, UsageError } from '../../shared/errors.js';
import type { McpConnector } from './connectors.js';

export class McpSessionError extends RuntimeError {
  constructor(message: string, code: 'mcp_disconnected' | 'mcp_error' = 'mcp_error', cause?: unknown) {
    super(message, { code: code, cause });
  }
}

export interface McpReconnectOptions {
  enabled: boolean;
  /** delay before the first attempt; doubles after each failed attempt */
  backoffMs: number;
  maxBackoffMs: number;
  /** give up after this many failed attempts; undefined = keep trying */
  maxAttempts?: number;
}

export type McpSessionEvent =
  | { type: 'connected' | 'reconnected'; at: number; attempt?: number }
  | { type: 'disconnected'; at: number; reason: 'fault' | 'lost' | 'closed' }
  | { type: 'reconnect_failed'; at: number; attempt: number; error: string; givingUp: boolean };

export interface McpSessionOptions {
  /** returns a fresh client transport on every (re)connect */
  connect: McpConnector;
  clock?: Clock;
  reconnect?: Partial<McpReconnectOptions>;
  /** client name announced to the server */
  name?: string;
  /** per-request deadline; default 10000 */
  requestTimeoutMs?: number;
  onEvent?: (event: McpSessionEvent) => void;
}

export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema: unknown;
}

export interface McpToolResult {
  /** the text parts of the content, joined by newlines */
  text: string;
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  /** the tool ran but reported a failure */
  isError: boolean;
}

export interface McpSession {
  connect(): Promise<void>;
  isConnected(): boolean;
  listTools(): Promise<McpToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<McpToolResult>;
  /** the fault: closes the live transport (reconnects afterwards when enabled) */
  disconnect(): Promise<void>;
  /** ends the session for good: no reconnect */
  close(): Promise<void>;
  readonly reconnects: number;
  readonly disconnects: number;
  readonly isReconnecting: boolean;
  configureReconnect(patch: Partial<McpReconnectOptions>): void;
  reconnectConfig(): McpReconnectOptions;
}

export function createMcpSession(options: McpSessionOptions): McpSession {
  const clock = options.clock ?? systemClock;
  const requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
  const reconnect: McpReconnectOptions = { enabled: true, backoffMs: 100, maxBackoffMs: 5000 };
  const emit = (event: McpSessionEvent) => options.onEvent?.(event);

  let client: Client | undefined;
  let connected = false;
  let closed = false;
  let generation = 0;
  let opening: Promise<void> | undefined;
  let timer: TimerHandle | undefined;
  let pendingReason: 'fault' | 'lost' = 'lost';
  let reconnects = 0;
  let disconnects = 0;

  const configureReconnect = (patch: Partial<McpReconnectOptions>) => {
    for (const key of ['backoffMs', 'maxBackoffMs', 'maxAttempts'] as const) {
      const value = patch[key];
      if (value !== undefined && (!Number.isFinite(value) || value < 0))
        throw new UsageError(`MCP reconnect ${key} must be a non-negative number, got ${value}`, {
          code: 'invalid_mcp_config',
        });
    }
    Object.assign(reconnect, Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)));
    if ('maxAttempts' in patch && patch.maxAttempts === undefined) delete reconnect.maxAttempts;
    // turning reconnect on while down starts recovering at once
    if (reconnect.enabled && !connected && !closed && !timer && !opening && client) scheduleReconnect(0);
    if (!reconnect.enabled) cancelTimer();
  };

  const cancelTimer = () => {
    timer?.cancel();
    timer = undefined;
  };

  const open = async (): Promise<void> => {
    const mine = ++generation;
    let established = false;
    let lost = false;
    // loaded on the first connect, so importing the package does not load the SDK
    const [{ Client }, { lazySchemaValidator }] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('./schema-validator.js'),
    ]);
    const next = new Client(
      { name: options.name ?? 'chaos-arena-agent', version: '1.0.0' },
      { jsonSchemaValidator: lazySchemaValidator() },
    );
    next.onclose = () => {
      // a superseded connection closing late, or a handshake that failed (reported by open's caller)
      // (the SDK's in-memory transport reports one close twice: handle it once)
      if (mine !== generation || !established || lost) return;
      lost = true;
      connected = false;
      disconnects++;
      const reason = closed ? 'closed' : pendingReason;
      pendingReason = 'lost';
      emit({ type: 'disconnected', at: clock.now(), reason });
      if (!closed && reconnect.enabled) scheduleReconnect(0);
    };
    const transport = await options.connect();
    await next.connect(transport, { timeout: requestTimeoutMs });
    if (mine !== generation || closed) {
      await next.close();
      throw new McpSessionError('MCP connection superseded', 'mcp_disconnected');
    }
    client = next;
    connected = true;
    established = true;
  };

  const openOnce = () => {
    opening ??= open().finally(() => (opening = undefined));
    return opening;
  };

  const scheduleReconnect = (attempt: number) => {
    cancelTimer();
    const delay = Math.min(reconnect.backoffMs * 2 ** attempt, reconnect.maxBackoffMs);
    timer = clock.setTimer(delay, () => {
      timer = undefined;
      if (closed || connected || !reconnect.enabled) return;
      openOnce().then(
        () => {
          reconnects++;
          emit({ type: 'reconnected', at: clock.now(), attempt: attempt + 1 });
        },
        (error: unknown) => {
          const givingUp = reconnect.maxAttempts !== undefined && attempt + 1 >= reconnect.maxAttempts;
          emit({
            type: 'reconnect_failed',
            at: clock.now(),
            attempt: attempt + 1,
            error: (error as Error).message,
            givingUp,
          });
          if (!givingUp && !closed && reconnect.enabled && !connected) scheduleReconnect(attempt + 1);
        },
      );
    });
  };

  const live = (): Client => {
    if (!connected || !client)
      throw new McpSessionError(closed ? 'MCP session is closed' : 'MCP session is not connected', 'mcp_disconnected');
    return client;
  };

  const wrap = (error: unknown, what: string): never => {
    if (error instanceof McpSessionError) throw error;
    throw new McpSessionError(
      `MCP ${what} failed: ${(error as Error).message}`,
      connected ? 'mcp_error' : 'mcp_disconnected',
      error,
    );
  };

  configureReconnect(options.reconnect ?? {});

  return {
    async connect() {
      closed = false;
      if (connected) return;
      cancelTimer();
      await openOnce();
      emit({ type: 'connected', at: clock.now() });
    },
    isConnected: () => connected,
    async listTools() {
      try {
        const { tools } = await live().listTools(undefined, { timeout: requestTimeoutMs });
        return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
      } catch (error) {
        return wrap(error, 'listTools');
      }
    },
    async callTool(name, args = {}) {
      try {
        const result = await live().callTool({ name, arguments: args }, undefined, { timeout: requestTimeoutMs });
        const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
        const text = content
          .filter((c): c is { type: 'text'; text: string } => (c as { type?: string }).type === 'text')
          .map((c) => c.text)
          .join('\n');
        return {
          text,
          content,
          structuredContent: result.structuredContent as Record<string, unknown> | undefined,
          isError: result.isError === true,
        };
      } catch (error) {
        return wrap(error, `tool "${name}"`);
      }
    },
    async disconnect() {
      const current = live();
      pendingReason = 'fault';
      await current.close();
    },
    async close() {
      closed = true;
      cancelTimer();
      const current = client;
      client = undefined;
      if (connected) await current?.close();
      connected = false;
    },
    get reconnects() {
      return reconnects;
    },
    get disconnects() {
      return disconnects;
    },
    get isReconnecting() {
      return !connected && !closed && (timer !== undefined || opening !== undefined);
    },
    configureReconnect,
    reconnectConfig: () => ({ ...reconnect }),
  };
}
