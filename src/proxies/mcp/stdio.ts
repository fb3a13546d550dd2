/**
 * The stdio MCP proxy: the agent launches it in place of its server. Our
 * stdin/stdout are the agent's MCP channel (an SDK StdioServerTransport);
 * the real server is spawned through an SDK StdioClientTransport.
 *
 * A stdio session is the life of the process pair, so mcp_disconnect does
 * what a crashed server does: SIGKILL the server and everything below it,
 * close our end of the pipes, and end the proxy. The agent's SDK sees its
 * server process exit (`onclose`, in-flight requests fail with "Connection
 * closed"); reconnecting means launching the command again, as any stdio
 * MCP client does for a server that died, and the new proxy spawns a fresh
 * server. Nothing but MCP messages is ever written to stdout.
 */
import type { Readable, Writable } from 'node:stream';
import { createFaultRegistry } from '../../protocol/fault-registry.js';
import { notApplicable } from '../../protocol/wire.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import { createToolFaultBook, mcpFaultApplier } from './faults.js';
import { killTree } from './process-tree.js';
import { relaySession } from './relay.js';
import { createStats, recordClient, snapshot } from './stats.js';
import type { MarkerBook } from '../../protocol/markers.js';
import type { McpProxy, McpProxyEndReason } from './types.js';
import { createToolCallLog } from './tool-calls.js';
import { createCallLedger, type CallLedger } from '../../protocol/calls.js';

const SERVER_GONE_TIMEOUT_MS = 3000;

export interface StdioMcpProxyOptions {
  /** seeds what tool_fault changes: the same seed changes the same results the same way (default 0) */
  seed?: number;
  /** where tool_fault's markers are planted and looked for; shared with a target's other proxies (DESIGN §13.3) */
  markers?: MarkerBook;
  command: string;
  args?: string[];
  /** the server's environment; the proxy's own by default (it stands in for the server, so nothing is filtered) */
  env?: Record<string, string>;
  cwd?: string;
  /** the agent's side: our process's stdin and stdout in the CLI */
  stdin: Readable;
  stdout: Writable;
  clock?: Clock;
  /** where the server's stderr goes: ours (default, the agent sees the server's logs as it would without the proxy) */
  serverStderr?: 'inherit' | 'ignore';
  /** how long a server gets after SIGTERM on close before SIGKILL */
  killGraceMs?: number;
  /** where each tools/call is recorded (DESIGN §14): a process target passes the one its proxies share; default a ledger of its own */
  ledger?: CallLedger;
  /** the agent whose proxy this is: named in each call it records */
  agent?: string;
}

export async function startStdioMcpProxy(options: StdioMcpProxyOptions): Promise<McpProxy> {
  // the SDK is loaded only when a proxy starts (lazy: importing chaos-arena or starting the CLI must not pay for it)
  const [{ StdioClientTransport }, { StdioServerTransport }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const clock = options.clock ?? systemClock;
  const stats = createStats('stdio');
  const ledger = options.ledger ?? createCallLedger();
  const book = createToolFaultBook(options.seed ?? 0, options.markers);
  const env =
    options.env ??
    (Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>);
  const server = new StdioClientTransport({
    command: options.command,
    args: options.args ?? [],
    env,
    cwd: options.cwd,
    stderr: options.serverStderr ?? 'inherit',
  });
  const agent = new StdioServerTransport(options.stdin, options.stdout);

  let reason: McpProxyEndReason | undefined;
  let settle!: (why: McpProxyEndReason) => void;
  const ended = new Promise<McpProxyEndReason>((resolve) => (settle = resolve));
  let serverClosed!: () => void;
  const serverGone = new Promise<void>((resolve) => (serverClosed = resolve));

  const relay = relaySession(agent, server, {
    book,
    stats,
    clock,
    // stdio has no headers: its calls carry no trial or trace id (attribution falls to the one trial in flight)
    calls: createToolCallLog({ ledger, clock, ...(options.agent !== undefined ? { agent: options.agent } : {}) }),
    onInitialize: (name) => void recordClient(stats, name),
  });
  // true when `done` settles within ms; the timer is cancelled, so a quick exit is not held up by it
  const within = (done: Promise<void>, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = clock.setTimer(ms, () => resolve(false));
      void done.then(() => {
        timer.cancel();
        resolve(true);
      });
    });

  const stopAgentSide = () => {
    relay.dropPending();
    options.stdin.off('end', onAgentEnd);
    void agent.close();
    options.stdout.end();
  };
  const finish = async (why: McpProxyEndReason, signal: NodeJS.Signals) => {
    if (reason) return;
    reason = why;
    stats.sessions.open = 0;
    stopAgentSide();
    const pid = server.pid;
    if (pid !== null) {
      killTree(pid, signal);
      if (signal !== 'SIGKILL' && !(await within(serverGone, options.killGraceMs ?? 1000))) killTree(pid, 'SIGKILL');
    }
    // a process that escaped the tree (setsid) may still hold the pipes open: do not hang on it
    await within(serverGone, SERVER_GONE_TIMEOUT_MS);
    await registry.revertAll();
    settle(why);
  };
  const onAgentEnd = () => void finish('agent_closed', 'SIGTERM');

  const registry = createFaultRegistry({
    clock,
    apply: mcpFaultApplier({
      book,
      disconnect(request) {
        if (request.duration_ms !== undefined) {
          throw notApplicable(
            'duration_ms: a stdio mcp_disconnect ends the proxy with the session; the agent relaunching it is the reconnect, so there is no duration to keep',
          );
        }
        if (reason) throw notApplicable('mcp_disconnect: the session is already closed');
        stats.disconnects++;
        const pid = server.pid;
        // answer the control request first; the kill follows on the next turn
        clock.setTimer(0, () => void finish('disconnected', 'SIGKILL'));
        return {
          report: {
            closed: 'stdio session',
            server_pid: pid,
            killed: 'server process tree (SIGKILL)',
            pipes_closed: true,
          },
        };
      },
    }),
  });

  server.onclose = () => {
    serverClosed();
    // the server died on its own: the agent must see what it would see without the proxy
    void finish('server_exited', 'SIGKILL');
  };
  server.onerror = () => {
    // write failures on a dying child's pipes; its exit is reported through onclose
  };
  agent.onerror = () => {};

  try {
    await server.start();
  } catch (err) {
    throw new UsageError(
      `cannot start the MCP server command ${JSON.stringify(options.command)}: ${errorMessage(err)}`,
      { code: 'mcp_server_spawn_failed' },
    );
  }
  stats.sessions.open = 1;
  stats.sessions.total = 1;
  options.stdin.once('end', onAgentEnd);
  await agent.start();

  return {
    mode: 'stdio',
    faults: registry,
    calls: ledger,
    stats: () => ({ ...snapshot(stats), markers: book.markers.travel() }),
    ended,
    async close() {
      void finish('closed', 'SIGTERM');
      await ended;
    },
  };
}
