/**
 * Client configuration: plain data a YAML file can hold (validated with every
 * problem's path), plus a few code-only options (clock, env, custom factories).
 */
import type { Clock } from '../shared/clock.js';
import { durationProblem, tryParseDuration } from '../shared/duration.js';
import type { MCPServerConfig } from '../runtime/mcp/index.js';
import type { AgentRegistry } from '../workflow/registry.js';
import type { WorkflowDefinition } from '../workflow/types.js';
import { validateWorkflow, type WorkflowProblem } from '../workflow/validate.js';

export const LLM_PROVIDERS = ['local', 'openai-compatible'] as const;
export type LLMProviderKind = (typeof LLM_PROVIDERS)[number];

export interface LLMProviderConfig {
  /** default `local` (deterministic, offline) */
  provider?: LLMProviderKind;
  model?: string;
  /** required for `openai-compatible`, e.g. http://127.0.0.1:8080/v1 */
  base_url?: string;
  /** name of the environment variable that holds the API key (never the key itself) */
  api_key_env?: string;
  /** per-request timeout: milliseconds or a duration such as `30s` */
  timeout_ms?: number | string;
}

export interface LLMConfig extends LLMProviderConfig {
  /** retries on the primary after a retryable error (default 2) */
  retries?: number;
  backoff_ms?: number | string;
  fallback?: LLMProviderConfig;
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

export interface MCPClientConfig {
  /** by name: `{ transport: stdio, command, args?, env?, cwd? }` or `{ transport: http, url, headers? }` */
  servers: Record<string, MCPServerConfig>;
  /** per-request deadline (default 10s) */
  request_timeout_ms?: number | string;
  reconnect?: { enabled?: boolean; backoff_ms?: number | string; max_backoff_ms?: number | string; max_attempts?: number };
}

export interface ClientConfig {
  llm?: LLMConfig;
  /** MCP servers the client connects to on first use (`client.mcp(name)`) */
  mcp?: MCPClientConfig;
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

const TOP_KEYS = ['llm', 'mcp', 'agents', 'default_agent', 'memory', 'retrieval', 'workflow', 'clock', 'env'];
const PROVIDER_KEYS = ['provider', 'model', 'base_url', 'api_key_env', 'timeout_ms'];
const LLM_KEYS = [...PROVIDER_KEYS, 'retries', 'backoff_ms', 'fallback'];
const AGENT_KEYS = ['id', 'description', 'system_prompt', 'model', 'max_tokens', 'memory', 'retrieval'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** every problem at once, each with its path (`agents[1].id`) */
export function validateClientConfig(value: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path, message });
  if (!isRecord(value)) {
    add('', 'the client config must be an object');
    return problems;
  }
  unknownKeys(value, TOP_KEYS, '', add);
  if (value.llm !== undefined) checkLLM(value.llm, 'llm', LLM_KEYS, add);
  const agentIds = new Set<string>();
  if (value.agents !== undefined) {
    if (!Array.isArray(value.agents)) add('agents', 'must be a list of agents');
    else
      value.agents.forEach((agent, i) => {
        const at = `agents[${i}]`;
        if (!isRecord(agent)) return add(at, 'an agent must be an object with an `id`');
        unknownKeys(agent, AGENT_KEYS, at, add);
        if (typeof agent.id !== 'string' || agent.id.trim() === '') add(`${at}.id`, 'required: a non-empty string');
        else if (agentIds.has(agent.id)) add(`${at}.id`, `duplicate agent id '${agent.id}'`);
        else agentIds.add(agent.id);
        for (const key of ['description', 'system_prompt', 'model'] as const) {
          if (agent[key] !== undefined && typeof agent[key] !== 'string') add(`${at}.${key}`, 'must be a string');
        }
        checkInt(agent.max_tokens, `${at}.max_tokens`, 1, add);
        if (agent.memory !== undefined && typeof agent.memory !== 'boolean') add(`${at}.memory`, 'must be true or false');
        if (agent.memory === true && value.memory === undefined) add(`${at}.memory`, 'needs a `memory` section in the config');
        if (agent.retrieval !== undefined && typeof agent.retrieval !== 'boolean') checkInt(agent.retrieval, `${at}.retrieval`, 1, add);
        if (agent.retrieval && value.retrieval === undefined) add(`${at}.retrieval`, 'needs a `retrieval` section in the config');
      });
  }
  if (value.default_agent !== undefined && (typeof value.default_agent !== 'string' || !agentIds.has(value.default_agent))) {
    add('default_agent', `must be the id of one of the agents (${[...agentIds].join(', ') || 'none defined'})`);
  }
  if (value.memory !== undefined) {
    if (!isRecord(value.memory)) add('memory', 'must be an object (may be empty: {})');
    else {
      unknownKeys(value.memory, ['max_messages_per_session', 'max_sessions'], 'memory', add);
      checkInt(value.memory.max_messages_per_session, 'memory.max_messages_per_session', 1, add);
      checkInt(value.memory.max_sessions, 'memory.max_sessions', 1, add);
    }
  }
  if (value.retrieval !== undefined) {
    if (!isRecord(value.retrieval)) add('retrieval', 'must be an object (may be empty: {})');
    else {
      unknownKeys(value.retrieval, ['documents', 'max_documents'], 'retrieval', add);
      checkInt(value.retrieval.max_documents, 'retrieval.max_documents', 1, add);
      const docs = value.retrieval.documents;
      if (docs !== undefined && !Array.isArray(docs)) add('retrieval.documents', 'must be a list of {id?, text, metadata?}');
      else
        (docs ?? []).forEach((d: unknown, i: number) => {
          if (!isRecord(d) || typeof d.text !== 'string') add(`retrieval.documents[${i}]`, 'must be an object with a `text` string');
        });
    }
  }
  if (value.mcp !== undefined) checkMCP(value.mcp, add);
  if (value.workflow !== undefined) {
    if (!isRecord(value.workflow)) add('workflow', 'must be an object (may be empty: {})');
    else checkWorkflowSection(value.workflow, add, problems);
  }
  return problems;
}

function checkMCP(v: unknown, add: (p: string, m: string) => void): void {
  if (!isRecord(v)) return add('mcp', 'must be an object with `servers`');
  unknownKeys(v, ['servers', 'request_timeout_ms', 'reconnect'], 'mcp', add);
  checkDuration(v.request_timeout_ms, 'mcp.request_timeout_ms', add);
  if (!isRecord(v.servers) || Object.keys(v.servers).length === 0) add('mcp.servers', 'required: at least one server by name');
  else
    for (const [name, server] of Object.entries(v.servers)) {
      const at = `mcp.servers.${name}`;
      if (!isRecord(server)) {
        add(at, 'must be an object with `transport: stdio | http`');
        continue;
      }
      if (server.transport === 'stdio') {
        unknownKeys(server, ['transport', 'name', 'command', 'args', 'env', 'cwd'], at, add);
        if (typeof server.command !== 'string' || server.command === '') add(`${at}.command`, 'required for a stdio server: the command to spawn');
        if (server.args !== undefined && !(Array.isArray(server.args) && server.args.every((a) => typeof a === 'string'))) add(`${at}.args`, 'must be a list of strings');
        if (server.env !== undefined && !(isRecord(server.env) && Object.values(server.env).every((e) => typeof e === 'string'))) add(`${at}.env`, 'must map names to strings');
      } else if (server.transport === 'http') {
        unknownKeys(server, ['transport', 'name', 'url', 'headers'], at, add);
        if (typeof server.url !== 'string' || !/^https?:\/\/\S+$/.test(server.url)) add(`${at}.url`, 'required for an http server: an http(s) URL');
      } else add(`${at}.transport`, `must be stdio or http (got ${JSON.stringify(server.transport)})`);
    }
  if (v.reconnect !== undefined) {
    if (!isRecord(v.reconnect)) add('mcp.reconnect', 'must be an object');
    else {
      unknownKeys(v.reconnect, ['enabled', 'backoff_ms', 'max_backoff_ms', 'max_attempts'], 'mcp.reconnect', add);
      if (v.reconnect.enabled !== undefined && typeof v.reconnect.enabled !== 'boolean') add('mcp.reconnect.enabled', 'must be true or false');
      checkDuration(v.reconnect.backoff_ms, 'mcp.reconnect.backoff_ms', add);
      checkDuration(v.reconnect.max_backoff_ms, 'mcp.reconnect.max_backoff_ms', add);
      checkInt(v.reconnect.max_attempts, 'mcp.reconnect.max_attempts', 1, add);
    }
  }
}

function checkWorkflowSection(w: Record<string, unknown>, add: (p: string, m: string) => void, problems: ConfigProblem[]): void {
  unknownKeys(w, ['max_parallel', 'default_step_timeout_ms', 'workflows', 'agent_registry'], 'workflow', add);
  checkInt(w.max_parallel, 'workflow.max_parallel', 1, add);
  checkDuration(w.default_step_timeout_ms, 'workflow.default_step_timeout_ms', add);
  if (w.workflows !== undefined) {
    if (!Array.isArray(w.workflows)) add('workflow.workflows', 'must be a list of workflow definitions');
    else
      w.workflows.forEach((def: unknown, i: number) => {
        for (const p of validateWorkflow(def).errors) problems.push({ path: `workflow.workflows[${i}]${p.path ? `.${p.path}` : ''}`, message: p.message });
      });
  }
}

function checkLLM(v: unknown, at: string, keys: string[], add: (p: string, m: string) => void): void {
  if (!isRecord(v)) return add(at, 'must be an object, e.g. { provider: local }');
  unknownKeys(v, keys, at, add);
  const provider = v.provider ?? 'local';
  if (!LLM_PROVIDERS.includes(provider as LLMProviderKind)) add(`${at}.provider`, `must be one of ${LLM_PROVIDERS.join(', ')} (got ${JSON.stringify(v.provider)})`);
  for (const key of ['model', 'base_url', 'api_key_env'] as const) {
    if (v[key] !== undefined && (typeof v[key] !== 'string' || v[key] === '')) add(`${at}.${key}`, 'must be a non-empty string');
  }
  if (provider === 'openai-compatible') {
    if (v.base_url === undefined) add(`${at}.base_url`, 'required for provider openai-compatible');
    else if (typeof v.base_url === 'string' && !/^https?:\/\/[^\s]+$/.test(v.base_url)) add(`${at}.base_url`, `must be an http(s) URL (got ${JSON.stringify(v.base_url)})`);
    if (v.model === undefined) add(`${at}.model`, 'required for provider openai-compatible');
  }
  if (typeof v.api_key_env === 'string' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.api_key_env)) {
    add(`${at}.api_key_env`, 'must be an environment variable name (the key itself never goes in the file)');
  }
  checkDuration(v.timeout_ms, `${at}.timeout_ms`, add);
  if (keys.includes('retries')) checkInt(v.retries, `${at}.retries`, 0, add);
  if (keys.includes('backoff_ms')) checkDuration(v.backoff_ms, `${at}.backoff_ms`, add);
  if (v.fallback !== undefined) checkLLM(v.fallback, `${at}.fallback`, PROVIDER_KEYS, add);
}

function unknownKeys(obj: Record<string, unknown>, allowed: string[], at: string, add: (p: string, m: string) => void): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) add(at ? `${at}.${key}` : key, `unknown key '${key}' (allowed: ${allowed.join(', ')})`);
  }
}

function checkInt(v: unknown, path: string, min: number, add: (p: string, m: string) => void): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) add(path, `must be an integer ≥ ${min} (got ${JSON.stringify(v)})`);
}

function checkDuration(v: unknown, path: string, add: (p: string, m: string) => void): void {
  if (v === undefined) return;
  const problem = durationProblem(v);
  if (problem !== undefined) add(path, `must be milliseconds or a duration such as "30s" up to 24h: ${problem}`);
}

/** milliseconds from a validated duration field */
export function durationMs(v: number | string | undefined): number | undefined {
  return v === undefined ? undefined : tryParseDuration(v);
}
