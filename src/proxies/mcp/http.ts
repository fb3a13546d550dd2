/**
 * The streamable-HTTP MCP proxy: agents connect to it as to their server.
 * Each agent session is an SDK StreamableHTTPServerTransport of its own,
 * paired with an SDK StreamableHTTPClientTransport session to the upstream
 * server; the relay between the two is where faults are decided.
 *
 * mcp_disconnect resets every open stream of every session (the sockets are
 * destroyed, as when a server dies), ends the upstream sessions, and forgets
 * the session ids: a request with one is answered 404 "Session not found",
 * which the MCP spec and the SDK client treat as session expiry, so the
 * agent's next initialize opens a new session. With a duration, new
 * sessions are refused with 503 and `retry-after` until it ends, which is
 * what an agent's reconnect backoff has to ride out.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createFaultRegistry } from '../../protocol/fault-registry.js';
import { listenHttp, type HttpListener } from '../../shared/http/listen.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { UsageError, isArenaError } from '../../shared/errors.js';
import { parseJsonBody, readBody } from '../../shared/json-body.js';
import { createToolFaultBook, mcpFaultApplier } from './faults.js';
import { relaySession, type SessionRelay } from './relay.js';
import { createStats, recordClient, snapshot } from './stats.js';
import type { MarkerBook } from '../../protocol/markers.js';
import type { McpHttpProxy } from './types.js';
import { createToolCallLog } from './tool-calls.js';
import { createCallLedger, type CallLedger } from '../../protocol/calls.js';

export interface HttpMcpProxyOptions {
  /** seeds what tool_fault changes: the same seed changes the same results the same way (default 0) */
  seed?: number;
  /** where tool_fault's markers are planted and looked for; shared with a target's other proxies (DESIGN §13.3) */
  markers?: MarkerBook;
  /** the real server's streamable-HTTP endpoint, e.g. http://127.0.0.1:9100/mcp */
  upstream: string;
  /** 0 = a free port */
  port: number;
  host?: string;
  clock?: Clock;
  /** the largest JSON-RPC body accepted on a new session's initialize */
  bodyLimit?: number;
  /** where each tools/call is recorded (DESIGN §14): a process target passes the one its proxies share; default a ledger of its own */
  ledger?: CallLedger;
  /** the agent whose proxy this is: named in each call it records */
  agent?: string;
}

interface Session {
  id?: string;
  /** the agent's clientInfo.name, once its initialize came through */
  client?: string;
  agent: StreamableHTTPServerTransport;
  server: StreamableHTTPClientTransport;
  relay: SessionRelay;
  /** the agent's open HTTP responses (SSE streams): what a reset destroys */
  responses: Set<ServerResponse>;
  isClosed: boolean;
}

export function parseUpstreamUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`upstream ${JSON.stringify(text)} is not a URL (expected e.g. http://127.0.0.1:9100/mcp)`, {
      code: 'invalid_upstream',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`upstream ${text}: expected an http:// or https:// URL, got ${url.protocol}`, {
      code: 'invalid_upstream',
    });
  return url;
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const isInitialize = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  !Array.isArray(body) &&
  (body as Record<string, unknown>).method === 'initialize';

export async function startHttpMcpProxy(options: HttpMcpProxyOptions): Promise<McpHttpProxy> {
  const upstream = parseUpstreamUrl(options.upstream);
  // lazy: only a running proxy loads the SDK's HTTP transports (and their hono / fetch machinery)
  const [{ StreamableHTTPServerTransport: ServerTransport }, { StreamableHTTPClientTransport: ClientTransport }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
  const clock = options.clock ?? systemClock;
  const stats = createStats('http');
  const ledger = options.ledger ?? createCallLedger();
  const agentName = options.agent !== undefined ? { agent: options.agent } : {};
  const book = createToolFaultBook(options.seed ?? 0, options.markers);
  const sessions = new Set<Session>();
  const byId = new Map<string, Session>();
  // ids of mcp_disconnect faults with a duration still running: new sessions are refused meanwhile
  const outages = new Map<string, number>();
  let isClosing = false;
  // agents whose sessions an mcp_disconnect closed, and when: their next initialize is a reconnect
  const cutOff = new Map<string, number>();

  const endSession = (session: Session, isReset: boolean) => {
    if (session.isClosed) return;
    session.isClosed = true;
    sessions.delete(session);
    if (session.id !== undefined) byId.delete(session.id);
    stats.sessions.open = byId.size;
    session.relay.dropPending();
    if (isReset) for (const res of session.responses) res.destroy();
    void session.agent.close();
    void session.server
      .terminateSession()
      .catch(() => {})
      .finally(() => void session.server.close());
  };

  const openSession = (): Session => {
    const server = new ClientTransport(upstream);
    const session = { server, responses: new Set<ServerResponse>(), isClosed: false } as Session;
    session.agent = new ServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session.id = id;
        byId.set(id, session);
        stats.sessions.open = byId.size;
        stats.sessions.total++;
      },
    });
    session.relay = relaySession(session.agent, server, {
      book,
      stats,
      clock,
      calls: createToolCallLog({ ledger, clock, ...agentName }),
      onInitialize(name) {
        session.client = name;
        const client = recordClient(stats, name);
        const at = cutOff.get(name);
        if (at === undefined) return;
        cutOff.delete(name);
        client.reconnects++;
        client.last_reconnect_ms = Math.round(clock.now() - at);
      },
      onUpstreamError(error) {
        // the upstream forgot our session (404) or never gave one: this session cannot go on, the agent must start over
        const status = (error as { code?: unknown }).code;
        if (status === 404 || server.sessionId === undefined) clock.setTimer(0, () => endSession(session, false));
      },
    });
    session.agent.onclose = () => endSession(session, false);
    session.agent.onerror = () => {};
    server.onerror = () => {};
    sessions.add(session);
    return session;
  };

  const serve = async (session: Session, req: IncomingMessage, res: ServerResponse, body?: unknown) => {
    session.responses.add(res);
    res.once('close', () => session.responses.delete(res));
    await session.agent.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== upstream.pathname)
      return jsonRpcError(res, 404, -32000, `no MCP endpoint at ${path}: this proxy serves ${upstream.pathname}`);
    if (isClosing) return jsonRpcError(res, 503, -32000, 'the MCP proxy is shutting down');
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const session = byId.get(sid);
      if (!session) return jsonRpcError(res, 404, -32001, 'Session not found');
      return serve(session, req, res);
    }
    if (req.method !== 'POST') return jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    let body: unknown;
    try {
      body = parseJsonBody((await readBody(req, options.bodyLimit ?? 4 * 1024 * 1024)).toString('utf8'));
    } catch (err) {
      const status = isArenaError(err) && err.status === 413 ? 413 : 400;
      return jsonRpcError(res, status, -32700, `Parse error: ${isArenaError(err) ? err.message : 'invalid JSON'}`);
    }
    if (!isInitialize(body)) return jsonRpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    if (outages.size > 0) {
      const left = Math.max(...outages.values()) - clock.now();
      return jsonRpcError(res, 503, -32000, 'Service Unavailable: the MCP server is down (mcp_disconnect)', {
        'retry-after': String(Math.max(1, Math.ceil(left / 1000))),
      });
    }
    const session = openSession();
    await session.server.start();
    await session.agent.start();
    return serve(session, req, res, body);
  };

  const registry = createFaultRegistry({
    clock,
    apply: mcpFaultApplier({
      book,
      disconnect(request) {
        const closed = [...byId.keys()];
        stats.disconnects++;
        for (const session of sessions) if (session.client !== undefined) cutOff.set(session.client, clock.now());
        for (const session of [...sessions]) endSession(session, true);
        const report: Record<string, unknown> = {
          sessions_closed: closed.length,
          session_ids: closed,
          streams: 'reset',
          next: 'requests with these session ids get 404; a new initialize opens a new session',
        };
        if (request.duration_ms === undefined) return { report };
        outages.set(request.id, clock.now() + request.duration_ms);
        report.new_sessions = 'refused with 503 until the duration ends';
        return { report, revert: () => void outages.delete(request.id) };
      },
    }),
  });

  // a port in use is a usage error naming it; the listener's origin guard refuses a web page or a
  // rebound DNS name (the proxy forwards with the upstream's Host, past the server's own check)
  const listener: HttpListener = await listenHttp(
    (req, res) => {
      handle(req, res).catch(() => {
        // a reset stream or a client gone mid-request: the socket is already finished with
        if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal error in the MCP proxy');
      });
    },
    { port: options.port, host: options.host ?? '127.0.0.1' },
  );

  let settle!: (why: 'closed') => void;
  const ended = new Promise<'closed'>((resolve) => (settle = resolve));
  const url = new URL(listener.url);
  url.pathname = upstream.pathname;
  return {
    mode: 'http',
    port: listener.port,
    url: url.toString(),
    faults: registry,
    calls: ledger,
    stats: () => ({ ...snapshot(stats), markers: book.markers.travel() }),
    ended,
    async close() {
      if (isClosing) return void (await ended);
      isClosing = true;
      await registry.revertAll();
      for (const session of [...sessions]) endSession(session, true);
      await listener.close();
      settle('closed');
    },
  };
}
