/**
 * Client configuration: plain data a YAML file can hold (validated with every
 * problem's path), plus a few code-only options (clock, env, custom factories).
 */
import type { Clock } from '../shared/clock.js';
import { tryParseDuration } from '../shared/duration.js';
import { formatSegments, parseProblems } from '../shared/zod-problems.js';
import type { McpServerConfig } from '../runtime/mcp/index.js';
import type { AgentRegistry } from '../workflow/registry.js';
import type { WorkflowDefinition } from '../workflow/types.js';
import { workflowRelationProblems, type WorkflowProblem } from '../workflow/validate.js';
import {
  clientConfigCodeSchema,
  configUnknownKey,
  LLM_PROVIDERS,
  type clientConfigFileSchema,
} from './config-schema.js';
import type { z } from 'zod';

export { LLM_PROVIDERS };
export type LlmProviderKind = (typeof LLM_PROVIDERS)[number];

export interface LlmProviderConfig {
  /** default `local` (deterministic, offline) */
  provider?: LlmProviderKind;
  model?: string;
  /** required for `openai-compatible`, e.g. http://127.0.0.1:8080/v1 */
  base_url?: string;
  /** name of the environment variable that holds the API key (never the key itself) */
  api_key_env?: string;
  /** per-request timeout: milliseconds or a duration such as `30s` */
  timeout_ms?: number | string;
}

export interface LlmConfig extends LlmProviderConfig {
  /** retries on the primary after a retryable error (default 2) */
  retries?: number;
  backoff_ms?: number | string;
  fallback?: LlmProviderConfig;
}

export interface AgentConfig {
  id: string;
  description?: string;
  system_prompt?: string;
  model?: string;
  max_tokens?: number;
  /** keep the conversation in the memory service (needs `memory`) */
  memory?: boolean;
  /** add the best matching documents from the retrieval service (needs `retrieval`); a number sets top_k */
  retrieval?: boolean | number;
}

export interface MemoryConfig {
  max_messages_per_session?: number;
  max_sessions?: number;
}

export interface RetrievalConfig {
  documents?: Array<{ id?: string; text: string; metadata?: Record<string, unknown> }>;
  max_documents?: number;
}

export interface WorkflowConfig {
  max_parallel?: number;
  default_step_timeout_ms?: number | string;
  /** registered on the service when it is built */
  workflows?: WorkflowDefinition[];
  /** code only: your own agent types; when omitted the built-in types (echo, llm, agent, retrieve) are registered */
  agent_registry?: AgentRegistry;
}

export interface McpClientConfig {
  /** by name: `{ transport: stdio, command, args?, env?, cwd? }` or `{ transport: http, url, headers? }` */
  servers: Record<string, McpServerConfig>;
  /** per-request deadline (default 10s) */
  request_timeout_ms?: number | string;
  reconnect?: {
    enabled?: boolean;
    backoff_ms?: number | string;
    max_backoff_ms?: number | string;
    max_attempts?: number;
  };
}

export interface ClientConfig {
  llm?: LlmConfig;
  /** MCP servers the client connects to on first use (`client.mcp(name)`) */
  mcp?: McpClientConfig;
  agents?: AgentConfig[];
  /** id of the agent `SimpleClient.execute` uses; default the first */
  default_agent?: string;
  memory?: MemoryConfig;
  retrieval?: RetrievalConfig;
  workflow?: WorkflowConfig;
  /** code only */
  clock?: Clock;
  /** code only: where `api_key_env` is read (default process.env) */
  env?: Record<string, string | undefined>;
}

export type ConfigProblem = WorkflowProblem;

// a file the schema accepts is a ClientConfig: a compile error when the documented types and the schema drift
const _fileFits = (c: z.input<typeof clientConfigFileSchema>): ClientConfig => c;
void _fileFits;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** every problem at once, each with its path (`agents[1].id`): the shape (config-schema.ts), then the relations between fields */
export function validateClientConfig(value: unknown): ConfigProblem[] {
  const { problems } = parseProblems(clientConfigCodeSchema, value, { unknownKey: configUnknownKey });
  const out: ConfigProblem[] = problems.map((p) => ({ path: formatSegments(p.segments), message: p.message }));
  if (isRecord(value)) out.push(...relationProblems(value));
  return out;
}

function relationProblems(value: Record<string, unknown>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (isRecord(value.llm)) {
    providerProblems(value.llm, 'llm', add);
    if (isRecord(value.llm.fallback)) providerProblems(value.llm.fallback, 'llm.fallback', add);
  }
  const agentIds = new Set<string>();
  if (Array.isArray(value.agents)) {
    value.agents.forEach((agent, i) => {
      if (!isRecord(agent)) return;
      const at = `agents[${i}]`;
      if (typeof agent.id === 'string' && agent.id.trim() !== '') {
        if (agentIds.has(agent.id)) add(`${at}.id`, `duplicate agent id '${agent.id}'`);
        else agentIds.add(agent.id);
      }
      if (agent.memory === true && value.memory === undefined)
        add(`${at}.memory`, 'needs a `memory` section in the config');
      if (agent.retrieval && value.retrieval === undefined)
        add(`${at}.retrieval`, 'needs a `retrieval` section in the config');
    });
  }
  if (typeof value.default_agent === 'string' && !agentIds.has(value.default_agent)) {
    add('default_agent', `must be the id of one of the agents (${[...agentIds].join(', ') || 'none defined'})`);
  }
  if (isRecord(value.workflow) && Array.isArray(value.workflow.workflows)) {
    value.workflow.workflows.forEach((def: unknown, i: number) => {
      for (const p of workflowRelationProblems(def))
        add(`workflow.workflows[${i}]${p.path ? `.${p.path}` : ''}`, p.message);
    });
  }
  return problems;
}

/** what an openai-compatible provider needs besides its shape */
function providerProblems(v: Record<string, unknown>, at: string, add: (p: string, m: string) => void): void {
  if (v.provider !== 'openai-compatible') return;
  if (v.base_url === undefined) add(`${at}.base_url`, 'required for provider openai-compatible');
  else if (typeof v.base_url === 'string' && !/^https?:\/\/[^\s]+$/.test(v.base_url))
    add(`${at}.base_url`, `must be an http(s) URL (got ${JSON.stringify(v.base_url)})`);
  if (v.model === undefined) add(`${at}.model`, 'required for provider openai-compatible');
}

/** milliseconds from a validated duration field */
export function durationMs(v: number | string | undefined): number | undefined {
  return v === undefined ? undefined : tryParseDuration(v);
}
