/**
 * The four subsystems every agent has (toolbox, LLM client, MCP session;
 * memory is separate because it outlives restarts), built and reconfigured
 * from the strategy in force.
 */
import type { CallLedger } from '../protocol/calls.js';
import type { Clock } from '../shared/clock.js';
import type { LlmAttempt } from './llm/client.js';
import type { Strategy } from './strategy.js';
import { createToolbox, type ToolAttempt, type Toolbox, type ToolboxOptions } from './tools/index.js';
import { canonicalHash } from '../shared/canonical-json.js';
import { createLlmClient, createLocalModel, type LlmClient, type LlmClientOptions } from './llm/index.js';
import { createMcpSession, inProcessConnector, type McpSession } from './mcp/index.js';

export interface AgentSubsystems {
  tools: Toolbox;
  /** resolves once the MCP session's first connection attempt has settled */
  ready: Promise<void>;
  llm: LlmClient;
  mcp: McpSession;
  /** applies a changed strategy to the live subsystems */
  configure(strategy: Strategy): void;
  close(): Promise<void>;
}

export function createSubsystems(options: {
  clock: Clock;
  strategy: Strategy;
  agentId: string;
  /** records every LLM attempt and tool call (trials read it as the target's call ledger) */
  calls?: CallLedger | undefined;
  onToolChanged?: ToolboxOptions['onChanged'];
  onLlmChanged?: LlmClientOptions['onChanged'];
}): AgentSubsystems {
  const { clock, strategy, calls } = options;
  const tools = createToolbox({
    clock,
    timeoutMs: strategy.tools.timeout_ms,
    retries: strategy.tools.enabled ? strategy.tools.retries : 0,
    validate: strategy.tools.enabled && strategy.tools.validate,
    ...(options.onToolChanged ? { onChanged: options.onToolChanged } : {}),
    ...(calls
      ? {
          onAttempt: (a: ToolAttempt) =>
            calls.record({
              kind: 'tool',
              agent: options.agentId,
              started_ms: a.started_ms,
              ended_ms: a.ended_ms,
              ok: a.ok,
              faulted: a.faulted,
              tool: a.tool,
              args_hash: canonicalHash(a.args),
            }),
        }
      : {}),
  });
  const llm = createLlmClient({
    primary: createLocalModel({ name: 'local', clock }),
    fallback: createLocalModel({ name: 'local-fallback', model: 'local-fallback-1', clock }),
    clock,
    ...llmConfig(strategy),
    ...(options.onLlmChanged ? { onChanged: options.onLlmChanged } : {}),
    ...(calls
      ? {
          onAttempt: (a: LlmAttempt) =>
            calls.record({
              kind: 'llm',
              agent: options.agentId,
              started_ms: a.started_ms,
              ended_ms: a.ended_ms,
              ok: a.ok,
              faulted: a.faulted,
              ...(a.model !== undefined ? { model: a.model } : {}),
              ...(a.usage ? { tokens: { input: a.usage.promptTokens, output: a.usage.completionTokens } } : {}),
            }),
        }
      : {}),
  });
  const mcp = createMcpSession({
    connect: inProcessConnector(),
    clock,
    reconnect: mcpReconnect(strategy),
    name: options.agentId,
  });
  // the in-memory transport connects within a few microtasks; until then calls fail like any disconnected session
  const connecting = mcp.connect().catch(() => undefined);
  return {
    tools,
    llm,
    mcp,
    ready: connecting,
    configure(next) {
      tools.configure({
        timeoutMs: next.tools.timeout_ms,
        retries: next.tools.enabled ? next.tools.retries : 0,
        validate: next.tools.enabled && next.tools.validate,
      });
      llm.configure(llmConfig(next));
      mcp.configureReconnect(mcpReconnect(next));
    },
    async close() {
      await connecting;
      await mcp.close().catch(() => undefined);
    },
  };
}

function llmConfig(s: Strategy) {
  return {
    retries: s.llm.enabled ? s.llm.retries : 0,
    backoffMs: s.llm.backoff_ms,
    fallbackEnabled: s.llm.enabled && s.llm.fallback,
    validate: s.llm.enabled && s.llm.validate,
  };
}

function mcpReconnect(s: Strategy) {
  return { enabled: s.mcp.enabled, backoffMs: s.mcp.backoff_ms, maxBackoffMs: s.mcp.max_backoff_ms };
}
