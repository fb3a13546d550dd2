/**
 * Named agents over the LLM client: each has a system prompt and may keep its
 * conversation in the memory service and ground answers in retrieved documents.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../shared/clock.js';
import { NotFoundError, UsageError } from '../shared/errors.js';
import type { LlmClient, LlmMessage, LlmUsage } from '../runtime/llm/index.js';
import type { ConversationMemory } from '../runtime/services/conversation-memory.js';
import type { RetrievalIndex } from '../runtime/services/retrieval.js';
import type { AgentConfig } from './config.js';

export interface AgentExecuteOptions {
  /** conversation to continue (agents with `memory: true`); default one session per agent */
  session_id?: string;
  signal?: AbortSignal;
}

export interface AgentResponse {
  agent_id: string;
  text: string;
  provider: string;
  model: string;
  usage: LlmUsage;
  duration_ms: number;
  session_id?: string;
  /** ids of the documents given to the model as context */
  sources?: string[];
}

export interface AgentServiceOptions {
  agents: AgentConfig[];
  defaultAgent?: string;
  llm: () => LlmClient;
  memory?: () => ConversationMemory;
  retrieval?: () => RetrievalIndex;
  clock?: Clock;
}

export interface AgentService {
  list(): AgentConfig[];
  get(id: string): AgentConfig;
  readonly defaultAgentId: string;
  execute(agentId: string, query: string, options?: AgentExecuteOptions): Promise<AgentResponse>;
}

export function createAgentService(options: AgentServiceOptions): AgentService {
  const clock = options.clock ?? systemClock;
  const agents = new Map(options.agents.map((a) => [a.id, a]));
  if (agents.size === 0)
    throw new UsageError('the agent service needs at least one agent', { code: 'invalid_client_config' });
  const defaultAgentId = options.defaultAgent ?? options.agents[0].id;
  const get = (id: string) => {
    const agent = agents.get(id);
    if (!agent)
      throw new NotFoundError(`unknown agent '${id}' (configured: ${[...agents.keys()].join(', ')})`, {
        code: 'agent_not_found',
      });
    return agent;
  };

  return {
    defaultAgentId,
    list: () => [...agents.values()].map((a) => ({ ...a })),
    get: (id) => ({ ...get(id) }),
    async execute(agentId, query, opts = {}) {
      const agent = get(agentId);
      if (typeof query !== 'string' || query.trim() === '')
        throw new UsageError('query must be a non-empty string', { code: 'invalid_query' });
      const t0 = clock.now();
      const messages: LlmMessage[] = [];
      if (agent.system_prompt) messages.push({ role: 'system', content: agent.system_prompt });
      let sources: string[] | undefined;
      if (agent.retrieval && options.retrieval) {
        const hits = options.retrieval().search(query, typeof agent.retrieval === 'number' ? agent.retrieval : 3);
        sources = hits.map((h) => h.id);
        if (hits.length > 0)
          messages.push({ role: 'system', content: `Context:\n${hits.map((h) => `[${h.id}] ${h.text}`).join('\n')}` });
      }
      let sessionId: string | undefined;
      const memory = agent.memory && options.memory ? options.memory() : undefined;
      if (memory) {
        sessionId = opts.session_id ?? `agent-${agent.id}`;
        try {
          memory.getSession(sessionId);
        } catch {
          memory.createSession({ id: sessionId, metadata: { agent_id: agent.id } });
        }
        for (const m of memory.messages(sessionId, 20)) {
          if (m.role === 'user' || m.role === 'assistant') messages.push({ role: m.role, content: m.content });
        }
      }
      messages.push({ role: 'user', content: query });
      const response = await options
        .llm()
        .complete({ messages, model: agent.model, maxTokens: agent.max_tokens, signal: opts.signal });
      if (memory && sessionId) {
        memory.addMessage(sessionId, { role: 'user', content: query });
        memory.addMessage(sessionId, { role: 'assistant', content: response.text });
      }
      return {
        agent_id: agent.id,
        text: response.text,
        provider: response.provider,
        model: response.model,
        usage: response.usage,
        duration_ms: clock.now() - t0,
        ...(sessionId ? { session_id: sessionId } : {}),
        ...(sources ? { sources } : {}),
      };
    },
  };
}

/** a probe id that cannot collide with a user's session */
export function probeId(): string {
  return `health-${randomUUID()}`;
}
