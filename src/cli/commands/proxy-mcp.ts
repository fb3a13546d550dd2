/**
 * `arena proxy mcp`: the MCP fault proxy (DESIGN §10.3), as a stdio wrapper
 * (`-- COMMAND ARGS…`, launched by the agent in place of its server) or in
 * front of a streamable-HTTP server (`--upstream URL --listen PORT`).
 * In stdio mode stdout is the MCP channel: everything this command says
 * goes to stderr.
 */
import { Option, type Command } from 'commander';
import { offerValues } from '../completion/tree.js';
import type { CliContext } from '../context.js';
import { UsageError, RuntimeError, isArenaError } from '../../shared/errors.js';
import { tryParseDuration } from '../../shared/duration.js';
import { parsePort } from '../../shared/port.js';
import { examples, parseDurationOption, parseSeed } from './options.js';
// light: the fault names and nothing of the SDK
import { MCP_FAULT_TYPES } from '../../proxies/mcp/faults.js';
import { TOOL_FAULT_MODES, toolFaultProblems } from '../../protocol/tool-faults.js';

interface McpOptions {
  upstream?: string;
  listen?: string;
  host: string;
  control?: string;
  token?: string;
  tokenFile?: string;
  fault?: string[];
  duration?: string;
  tool?: string;
  mode?: string;
  delay?: string;
  keep?: string;
  payload?: string;
  hide?: string;
  rename?: string[];
  seed?: number;
}

// like every duration in the arena (DESIGN §3); the same cap as the protocol's MAX_DURATION_MS
const MAX_MS = 24 * 60 * 60 * 1000;

export function registerProxyMcpCommand(proxy: Command, ctx: CliContext): void {
  const command = proxy
    .command('mcp')
    .description(
      'Relay MCP between an agent and its server, injecting mcp_disconnect, tool_timeout, tool_error, slow_tool, tool_fault',
    )
    .argument('[command...]', 'stdio mode: the MCP server command and its arguments, after --')
    .option('--upstream <url>', "HTTP mode: the real server's streamable-HTTP endpoint")
    .option('--listen <port>', 'HTTP mode: port agents connect to (default 7400; 0 = a free port)')
    .option('--host <host>', 'address for --listen and --control', '127.0.0.1')
    .option(
      '--control <port>',
      'fault control port: POST/GET /v1/faults, DELETE /v1/faults/{id}, POST /v1/leases, POST /v1/reset, GET /v1/stats, GET /v1/calls',
    )
    .option(
      '--token <token>',
      'require Authorization: Bearer TOKEN on the control port (needed off loopback; visible in ps: prefer ARENA_PROXY_TOKEN or --token-file)',
    )
    .option('--token-file <file>', 'read the control port token from this file (its only content)')
    .addOption(
      offerValues(
        new Option('--fault <type...>', `start with these faults active: ${START_FAULTS.join(', ')}`),
        START_FAULTS,
      ),
    )
    .option(
      '--duration <d>',
      'how long --fault faults last (default: while the proxy runs, at most 24h)',
      parseDurationOption,
    )
    .option('--tool <name>', '--fault acts on calls of this tool only (tool_fault: a glob, * and ?)')
    .option(
      '--mode <mode>',
      `tool_error form: is_error (a result with isError: true, default) or jsonrpc (a JSON-RPC error); tool_fault mode: ${TOOL_FAULT_MODES.join(', ')}`,
    )
    .option('--delay <d>', 'slow_tool delay per call (default 5s)', parseDurationOption)
    .option('--keep <fraction>', 'tool_fault truncate: the fraction of the text kept (default 0.5)')
    .option('--payload <text>', 'tool_fault inject: the text appended (default: an instruction carrying a canary)')
    .option('--hide <tools>', 'tool_fault schema_drift: tools left out of tools/list, comma-separated')
    .option(
      '--rename <tool.from=to...>',
      'tool_fault schema_drift: an input field renamed in tools/list, e.g. search.query=q',
    )
    .option('--seed <n>', 'seed of what tool_fault changes (the same seed changes the same bytes)', parseSeed);
  examples(command, [
    'arena proxy mcp --control 7401 -- npx -y @modelcontextprotocol/server-everything stdio',
    'arena proxy mcp --upstream http://127.0.0.1:9100/mcp --listen 7400 --control 7401',
    'arena proxy mcp --upstream http://127.0.0.1:9100/mcp --listen 7400 --fault tool_error --mode jsonrpc --tool search',
    'arena proxy mcp --seed 7 --fault tool_fault --mode inject --tool "get_*" -- node my-server.js',
    'curl -X POST 127.0.0.1:7401/v1/faults -d \'{"id":"t1","type":"tool_timeout","duration_ms":10000}\'',
  ]);
  command.action(async (words: string[], opts: McpOptions) => {
    const isStdio = words.length > 0;
    if (isStdio && opts.upstream !== undefined)
      throw new UsageError('give either --upstream URL (streamable HTTP) or -- COMMAND (stdio), not both');
    if (!isStdio && opts.upstream === undefined)
      throw new UsageError('nothing to proxy: give --upstream URL (streamable HTTP) or -- COMMAND ARGS… (stdio)', {
        code: 'invalid_input',
        hint: 'arena proxy mcp -- npx -y @modelcontextprotocol/server-everything stdio',
      });
    if (isStdio && opts.listen !== undefined)
      throw new UsageError(
        '--listen is for HTTP mode (--upstream); a stdio proxy talks to the agent over its own stdin/stdout',
      );
    const listenPort = parsePort(opts.listen ?? 7400, '--listen');
    const controlPort = opts.control === undefined ? undefined : parsePort(opts.control, '--control');
    const { readProxyToken } = await import('../secrets.js');
    const token = readProxyToken(opts, ctx);
    const { isLoopbackName } = await import('../../shared/http/origin-guard.js');
    if (opts.control !== undefined && !isLoopbackName(opts.host) && token === undefined) {
      throw new UsageError(
        `--host ${opts.host}: a control port off loopback needs --token (anyone who reaches it can inject faults)`,
      );
    }
    const faults = startFaults(opts);
    const mcp = await import('../../proxies/mcp/index.js');
    const say = (line: string) => ctx.stderr.write(`arena: ${line}\n`);

    const proxy = isStdio
      ? // the agent's MCP channel is this process's own stdin/stdout, not the injected writers
        await mcp.startStdioMcpProxy({
          command: words[0]!,
          args: words.slice(1),
          stdin: process.stdin,
          stdout: process.stdout,
          env: envOf(ctx.env),
          cwd: ctx.cwd,
          ...(opts.seed === undefined ? {} : { seed: opts.seed }),
        })
      : await mcp
          .startHttpMcpProxy({
            upstream: opts.upstream!,
            port: listenPort,
            host: opts.host,
            ...(opts.seed === undefined ? {} : { seed: opts.seed }),
          })
          .catch((err: unknown) => {
            throw isArenaError(err) && err.code === 'port_in_use'
              ? new UsageError(`--listen: port ${listenPort} is already in use`, {
                  code: 'port_in_use',
                  hint: 'pick another port, or --listen 0 for a free one',
                })
              : err;
          });
    let control: Awaited<ReturnType<typeof mcp.startMcpControl>> | undefined;
    const canaries = new Map<string, string>();
    try {
      if (controlPort !== undefined) {
        control = await mcp
          .startMcpControl(proxy, {
            port: controlPort,
            host: opts.host,
            ...(token === undefined ? {} : { token }),
          })
          .catch((err: unknown) => {
            throw isArenaError(err) && err.code === 'port_in_use'
              ? new UsageError(`--control: port ${opts.control} is already in use`, {
                  code: 'port_in_use',
                  hint: 'pick another port, or --control 0 for a free one',
                })
              : err;
          });
      }
      for (const request of faults) {
        const { body } = await proxy.faults.add(request).catch((err: unknown) => {
          throw new UsageError(`--fault ${request.type}: ${err instanceof Error ? err.message : String(err)}`);
        });
        const canary = (body.report as Record<string, unknown> | undefined)?.canary;
        if (typeof canary === 'string') canaries.set(request.id, canary);
      }
    } catch (err) {
      await control?.close();
      await proxy.close();
      throw err;
    }

    const where =
      'url' in proxy
        ? `listening on ${(proxy as { url: string }).url} → ${opts.upstream}`
        : `relaying stdio to ${JSON.stringify(words.join(' '))}`;
    say(`MCP proxy ${where}${control ? `; control on ${control.url}` : ''}`);
    for (const f of faults)
      say(
        `fault ${f.type}${f.type === 'tool_fault' ? ` (${String(f.params.mode)})` : ''} active${f.duration_ms === undefined ? '' : ` for ${opts.duration}`}${f.params.tool ? ` on tool ${String(f.params.tool)}` : ''}${canaries.has(f.id) ? `; canary ${canaries.get(f.id)}` : ''}`,
      );

    const stopped = new Promise<'signal'>((resolve) => {
      if (ctx.signal.aborted) resolve('signal');
      else ctx.signal.addEventListener('abort', () => resolve('signal'), { once: true });
    });
    const why = await Promise.race([stopped, proxy.ended]);
    await control?.close();
    await proxy.close();
    const stats = proxy.stats();
    say(
      `MCP proxy stopped: ${stats.tool_calls} tool calls, ${stats.errors_injected} errors injected, ${stats.calls_held.total} held, ${stats.calls_delayed} delayed, ${stats.disconnects} disconnects`,
    );
    if (why === 'disconnected')
      say(
        'mcp_disconnect closed the stdio session (server killed, pipes closed); the agent reconnects by launching this command again',
      );
    if (why === 'server_exited')
      throw new RuntimeError(
        "the MCP server process exited; the proxy closed the agent's pipes as the server would have",
        { code: 'mcp_server_exited' },
      );
  });
}

/** what --fault can start with: every MCP fault but mcp_disconnect (no session exists yet) */
const START_FAULTS = MCP_FAULT_TYPES.filter((t) => t !== 'mcp_disconnect');

/** The --fault flags as fault requests, validated by the proxy's own applier when added. */
function startFaults(opts: McpOptions) {
  const types = opts.fault ?? [];
  for (const type of types) {
    if (!(MCP_FAULT_TYPES as readonly string[]).includes(type))
      throw new UsageError(`--fault ${type}: unknown MCP fault (expected ${START_FAULTS.join(', ')})`);
  }
  if (types.includes('mcp_disconnect')) {
    throw new UsageError(
      '--fault mcp_disconnect: there is no session to close before the agent connects; inject it through --control while the proxy runs',
    );
  }
  if (types.length === 0) {
    for (const flag of ['duration', 'tool', 'mode', 'delay', 'keep', 'payload', 'hide', 'rename'] as const)
      if (opts[flag] !== undefined) throw new UsageError(`--${flag} configures --fault; give a --fault too`);
  }
  const isToolFault = types.includes('tool_fault');
  if (opts.mode !== undefined && !types.includes('tool_error') && !isToolFault)
    throw new UsageError('--mode applies to --fault tool_error and --fault tool_fault only');
  if (opts.mode !== undefined && types.includes('tool_error') && isToolFault)
    throw new UsageError('--mode: give --fault tool_error or --fault tool_fault, not both (their modes differ)');
  if (opts.mode !== undefined && !isToolFault && opts.mode !== 'is_error' && opts.mode !== 'jsonrpc')
    throw new UsageError(`--mode ${opts.mode}: expected is_error or jsonrpc`);
  for (const flag of ['keep', 'payload', 'hide', 'rename'] as const)
    if (opts[flag] !== undefined && !isToolFault) throw new UsageError(`--${flag} applies to --fault tool_fault only`);
  const toolFault = isToolFault ? toolFaultParams(opts) : undefined;
  if (opts.delay !== undefined && !types.includes('slow_tool'))
    throw new UsageError('--delay applies to --fault slow_tool only');
  const durationMs = opts.duration === undefined ? undefined : tryParseDuration(opts.duration)!;
  const delayMs = opts.delay === undefined ? undefined : tryParseDuration(opts.delay)!;
  if (durationMs !== undefined && durationMs > MAX_MS) throw new UsageError(`--duration ${opts.duration}: at most 24h`);
  if (delayMs !== undefined && delayMs > MAX_MS) throw new UsageError(`--delay ${opts.delay}: at most 24h`);
  return types.map((type, i) => {
    const params: Record<string, unknown> = {};
    if (opts.tool !== undefined) params.tool = opts.tool;
    if (type === 'tool_error' && opts.mode !== undefined) params.mode = opts.mode;
    if (type === 'tool_fault') Object.assign(params, toolFault);
    if (type === 'slow_tool' && delayMs !== undefined) params.delay_ms = delayMs;
    return {
      id: `cli-${i + 1}-${type}`,
      type,
      params,
      // a flag's fault has no arena renewing its lease: it lasts its duration or the proxy's life (the 24 h cap)
      lease_ms: MAX_MS,
      ...(durationMs === undefined ? {} : { duration_ms: durationMs }),
    };
  });
}

/** --mode, --keep, --payload, --hide, --rename as tool_fault's params, checked by the one vocabulary (DESIGN §13.2) */
function toolFaultParams(opts: McpOptions): Record<string, unknown> {
  if (opts.mode === undefined) throw new UsageError(`--fault tool_fault needs --mode (${TOOL_FAULT_MODES.join(', ')})`);
  const params: Record<string, unknown> = { mode: opts.mode };
  if (opts.tool !== undefined) params.tool = opts.tool;
  if (opts.keep !== undefined) {
    const keep = Number(opts.keep);
    params.keep = opts.keep.trim() === '' || !Number.isFinite(keep) ? opts.keep : keep;
  }
  if (opts.payload !== undefined) params.payload = opts.payload;
  if (opts.hide !== undefined)
    params.hide = opts.hide
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  if (opts.rename !== undefined) {
    const rename: Record<string, Record<string, string>> = {};
    for (const item of opts.rename) {
      const m = /^([^.=]+)\.([^=]+)=(.+)$/.exec(item);
      if (!m) throw new UsageError(`--rename ${item}: expected TOOL.FROM=TO, e.g. search.query=q`);
      (rename[m[1]!] ??= {})[m[2]!] = m[3]!;
    }
    params.rename = rename;
  }
  const problem = toolFaultProblems(params)[0];
  if (problem) {
    const flag = problem.field === 'tool' ? 'tool' : problem.field;
    throw new UsageError(`--${flag}: ${problem.message}`);
  }
  return params;
}

function envOf(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
