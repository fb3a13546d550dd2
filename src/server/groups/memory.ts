/** Memory group: conversation sessions and their messages. */
import { UsageError } from '../../shared/errors.js';
import type { Router } from '../router.js';
import { asObject, optionalObject, optionalString, queryInt, requiredString, type Awaitable } from './input.js';

export interface SessionView {
  id: string;
  created_at: string;
  updated_at: string;
  message_count: number;
  metadata: Record<string, unknown>;
}

export interface MessageView {
  id: string;
  role: string;
  content: string;
  at: string;
}

export interface MemoryService {
  createSession(options: { id?: string; metadata?: Record<string, unknown> }): Awaitable<SessionView>;
  listSessions(): Awaitable<SessionView[]>;
  getSession(id: string): Awaitable<SessionView>;
  deleteSession(id: string): Awaitable<void>;
  addMessage(sessionId: string, message: { role: string; content: string }): Awaitable<MessageView>;
  messages(sessionId: string, limit?: number): Awaitable<MessageView[]>;
}

const ROLES = new Set(['user', 'assistant', 'system', 'tool']);

export function registerMemoryRoutes(router: Router, service: MemoryService): void {
  const base = '/api/v1/memory/sessions';
  router.post(base, async (ctx) => {
    const body = asObject((await ctx.optionalJSON()) ?? {});
    const options: { id?: string; metadata?: Record<string, unknown> } = {};
    const id = optionalString(body, 'session_id') ?? optionalString(body, 'id');
    const metadata = optionalObject(body, 'metadata');
    if (id !== undefined) options.id = id;
    if (metadata !== undefined) options.metadata = metadata;
    ctx.send(201, { session: await service.createSession(options) });
  });
  router.get(base, async () => ({ sessions: await service.listSessions() }));
  router.get(`${base}/{id}`, async (ctx) => ({ session: await service.getSession(ctx.params.id!) }));
  router.delete(`${base}/{id}`, async (ctx) => {
    await service.deleteSession(ctx.params.id!);
    return { deleted: ctx.params.id };
  });
  router.post(`${base}/{id}/messages`, async (ctx) => {
    const body = asObject(await ctx.json());
    const role = requiredString(body, 'role');
    if (!ROLES.has(role)) throw new UsageError(`body.role must be one of ${[...ROLES].join(', ')}, got "${role}"`, 'invalid_input');
    const content = requiredString(body, 'content');
    ctx.send(201, { message: await service.addMessage(ctx.params.id!, { role, content }) });
  });
  router.get(`${base}/{id}/messages`, async (ctx) => ({
    messages: await service.messages(ctx.params.id!, queryInt(ctx.query, 'limit', 1, 10_000)),
  }));
}
