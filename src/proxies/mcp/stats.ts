import type { MarkerTravel } from '../../protocol/markers.js';

/** Counters behind `GET /v1/stats` on the MCP proxy's control port. */
export interface McpProxyStats {
  mode: 'stdio' | 'http';
  sessions: { open: number; total: number };
  /** JSON-RPC messages passed through, each direction */
  messages_relayed: { to_server: number; to_client: number };
  /** `tools/call` requests the agent sent */
  tool_calls: number;
  calls_held: { now: number; total: number };
  calls_delayed: number;
  errors_injected: number;
  /** tool results a tool_fault changed (truncated, emptied, corrupted, injected) */
  results_changed: number;
  /** tools/list answers a schema_drift changed, and the list_changed notifications sent */
  lists_drifted: number;
  list_changed_sent: number;
  /** calls sent upstream a second time by duplicate_call */
  duplicate_calls: number;
  /** held or delayed calls never forwarded: the agent cancelled them, or the session closed */
  calls_dropped: number;
  disconnects: number;
  /** agent requests the proxy answered with an error because the server could not be reached */
  upstream_errors: number;
  /**
   * per agent (the `clientInfo.name` of its initialize): sessions opened, and how it came back
   * after an mcp_disconnect: reconnects counted, time from the disconnect to its new session
   */
  clients: Record<string, ClientStats>;
  /** per fault, the markers tool_fault planted and how far they travelled (DESIGN §13.3) */
  markers?: MarkerTravel[];
}

export interface ClientStats {
  sessions: number;
  reconnects: number;
  last_reconnect_ms?: number;
}

export function createStats(mode: McpProxyStats['mode']): McpProxyStats {
  return {
    mode,
    sessions: { open: 0, total: 0 },
    messages_relayed: { to_server: 0, to_client: 0 },
    tool_calls: 0,
    calls_held: { now: 0, total: 0 },
    calls_delayed: 0,
    errors_injected: 0,
    results_changed: 0,
    lists_drifted: 0,
    list_changed_sent: 0,
    duplicate_calls: 0,
    calls_dropped: 0,
    disconnects: 0,
    upstream_errors: 0,
    // keyed by names agents choose: no prototype, so "__proto__" is just a name
    clients: Object.create(null) as Record<string, ClientStats>,
  };
}

/** counts a session of the agent named `name`; its stats, to note a reconnect on */
export function recordClient(stats: McpProxyStats, name: string): ClientStats {
  const client = (stats.clients[name] ??= { sessions: 0, reconnects: 0 });
  client.sessions++;
  return client;
}

export function snapshot(stats: McpProxyStats): McpProxyStats {
  return structuredClone(stats);
}
