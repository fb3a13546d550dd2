/**
 * `arena proxy tcp|llm|mcp`: the fault proxies as standalone commands
 * (DESIGN §10). Each kind lives in its own file (proxy-tcp.ts, proxy-llm.ts,
 * proxy-mcp.ts) and registers itself on this group.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';
import { registerProxyTcpCommand } from './proxy-tcp.js';
import { registerProxyLlmCommand } from './proxy-llm.js';
import { registerProxyMcpCommand } from './proxy-mcp.js';

export function registerProxyCommand(program: Command, ctx: CliContext): void {
  const proxy = program
    .command('proxy')
    .description('Run a fault proxy between your agents and what they call (TCP, LLM API, MCP)');
  examples(proxy, [
    'arena proxy tcp --listen 7001 --upstream 127.0.0.1:7101 --control 7002',
    'arena proxy llm --upstream http://127.0.0.1:9000 --fault rate_limit --first-n 2',
    'arena proxy mcp --upstream http://127.0.0.1:9100/mcp --listen 7400',
  ]);
  registerProxyTcpCommand(proxy, ctx);
  registerProxyLlmCommand(proxy, ctx);
  registerProxyMcpCommand(proxy, ctx);
}
