/**
 * User-created assistant agents: each has instructions and its own
 * conversation session, and answers through the shared assistant pipeline
 * (retrieval + LLM + memory).
 */
import { ConflictError, NotFoundError, UsageError } from '../../shared/errors.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { runAssistantTurn, type AssistantDeps, type TurnEvent } from './assistant.js';

export interface AssistantInfo {
  id: string;
  kind: 'assistant';
  role: string;
  status: 'running';
  restarts: 0;
  instructions: string;
  session_id: string;
  created_at: string;
  turns: number;
}

export interface Assistants {
  list(): AssistantInfo[];
  has(id: string): boolean;
  get(id: string): AssistantInfo;
  create(spec: { id?: string; role?: string; instructions?: string }): AssistantInfo;
  remove(id: string): void;
  /** one turn; resolves with every event of it */
  chat(
    id: string,
    message: string,
    signal?: AbortSignal,
  ): Promise<{ agent_id: string; events: TurnEvent[]; answer: string | null }>;
}

const ID = /^[A-Za-z0-9._-]{1,64}$/;

export function createAssistants(
  deps: AssistantDeps & { clock?: Clock; reserved?: (id: string) => boolean; limit?: number },
): Assistants {
  const clock = deps.clock ?? systemClock;
  const limit = deps.limit ?? 1000;
  const agents = new Map<string, AssistantInfo>();
  let next = 1;
  const find = (id: string) => {
    const a = agents.get(id);
    if (!a) throw new NotFoundError(`agent "${id}" not found`, { code: 'agent_not_found' });
    return a;
  };
  return {
    list: () => [...agents.values()].map((a) => ({ ...a })),
    has: (id) => agents.has(id),
    get: (id) => ({ ...find(id) }),
    create({ id, role, instructions }) {
      if (id !== undefined && !ID.test(id))
        throw new UsageError(`agent id "${id}" is invalid: use 1-64 letters, digits, ".", "_" or "-"`, {
          code: 'invalid_agent_id',
        });
      if (id !== undefined && (agents.has(id) || deps.reserved?.(id)))
        throw new ConflictError(`agent "${id}" already exists`, { code: 'agent_exists' });
      if (agents.size >= limit) throw new ConflictError(`agent limit reached (${limit})`, { code: 'agent_limit' });
      let agentId = id;
      while (agentId === undefined || agents.has(agentId) || deps.reserved?.(agentId)) agentId = `assistant-${next++}`;
      const session = deps.memory.createSession({ metadata: { agent_id: agentId } });
      const info: AssistantInfo = {
        id: agentId,
        kind: 'assistant',
        role: role ?? 'assistant',
        status: 'running',
        restarts: 0,
        instructions: instructions ?? 'You are a helpful assistant.',
        session_id: session.id,
        created_at: clock.wallNow().toISOString(),
        turns: 0,
      };
      agents.set(agentId, info);
      return { ...info };
    },
    remove(id) {
      const a = find(id);
      agents.delete(id);
      try {
        deps.memory.deleteSession(a.session_id);
      } catch {
        // the session may have been deleted through the memory routes already
      }
    },
    async chat(id, message, signal) {
      const a = find(id);
      if (typeof message !== 'string' || message.trim() === '')
        throw new UsageError('message must be a non-empty string', { code: 'invalid_input' });
      const events: TurnEvent[] = [];
      for await (const e of runAssistantTurn(
        deps,
        { query: message, session_id: a.session_id, options: { system: a.instructions } },
        signal,
      ))
        events.push(e);
      a.turns += 1;
      const answer = events.find((e) => e.event === 'answer' && !e.error)?.data as { text?: string } | undefined;
      return { agent_id: id, events, answer: answer?.text ?? null };
    },
  };
}
