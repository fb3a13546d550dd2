/**
 * Conversation memory: sessions and their messages, kept in memory with a cap
 * per session (oldest messages go first) and on the number of sessions.
 */
import { NotFoundError, UsageError, ConflictError } from '../../shared/errors.js';
import { systemClock, type Clock } from '../../shared/clock.js';

export interface ConversationSession {
  id: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  metadata: Record<string, unknown>;
}

export interface ConversationMessage {
  id: string;
  role: string;
  content: string;
  at: string;
}

export interface ConversationMemoryOptions {
  clock?: Clock;
  maxMessagesPerSession?: number;
  maxSessions?: number;
}

export interface ConversationMemory {
  createSession(options?: { id?: string; metadata?: Record<string, unknown> }): ConversationSession;
  listSessions(): ConversationSession[];
  getSession(id: string): ConversationSession;
  deleteSession(id: string): void;
  addMessage(sessionId: string, message: { role: string; content: string }): ConversationMessage;
  /** the last `limit` messages in order (all when omitted) */
  messages(sessionId: string, limit?: number): ConversationMessage[];
  readonly size: number;
}

interface SessionState {
  session: ConversationSession;
  messages: ConversationMessage[];
  nextMessage: number;
}

const ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function createConversationMemory(options: ConversationMemoryOptions = {}): ConversationMemory {
  const clock = options.clock ?? systemClock;
  const maxMessages = options.maxMessagesPerSession ?? 1000;
  const maxSessions = options.maxSessions ?? 10_000;
  const sessions = new Map<string, SessionState>();
  let nextSession = 1;

  const find = (id: string): SessionState => {
    const state = sessions.get(id);
    if (!state) throw new NotFoundError(`session "${id}" not found`, { code: 'session_not_found' });
    return state;
  };
  const view = (state: SessionState): ConversationSession => ({
    ...state.session,
    metadata: { ...state.session.metadata },
  });

  return {
    createSession({ id, metadata } = {}) {
      if (id !== undefined && !ID.test(id)) {
        throw new UsageError(`session id "${id}" is invalid: use 1-128 letters, digits, ".", "_", ":" or "-"`, {
          code: 'invalid_session_id',
        });
      }
      if (id !== undefined && sessions.has(id))
        throw new ConflictError(`session "${id}" already exists`, { code: 'session_exists' });
      if (sessions.size >= maxSessions)
        throw new ConflictError(`session limit reached (${maxSessions}); delete some first`, { code: 'session_limit' });
      let sessionId = id;
      while (sessionId === undefined || sessions.has(sessionId)) sessionId = `session-${nextSession++}`;
      const now = clock.wallNow().toISOString();
      const state: SessionState = {
        session: { id: sessionId, created_at: now, updated_at: now, message_count: 0, metadata: { ...metadata } },
        messages: [],
        nextMessage: 1,
      };
      sessions.set(sessionId, state);
      return view(state);
    },
    listSessions: () => [...sessions.values()].map(view),
    getSession: (id) => view(find(id)),
    deleteSession(id) {
      find(id);
      sessions.delete(id);
    },
    addMessage(sessionId, { role, content }) {
      const state = find(sessionId);
      const at = clock.wallNow().toISOString();
      const message: ConversationMessage = { id: `${sessionId}/${state.nextMessage++}`, role, content, at };
      state.messages.push(message);
      if (state.messages.length > maxMessages) state.messages.splice(0, state.messages.length - maxMessages);
      state.session.message_count = state.messages.length;
      state.session.updated_at = at;
      return { ...message };
    },
    messages(sessionId, limit) {
      const list = find(sessionId).messages;
      return (limit === undefined ? list : list.slice(-limit)).map((m) => ({ ...m }));
    },
    get size() {
      return sessions.size;
    },
  };
}
