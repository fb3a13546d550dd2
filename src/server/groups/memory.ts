/** Memory group: conversation sessions and their messages. */
import type { Routes } from '../routes.js';
import { body, id, optionalBody, record, text, z, noBody } from '../body.js';
import { queryInt, type Awaitable } from './input.js';

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

export const CreateSession = z.strictObject({
  session_id: id().optional(),
  id: id().optional(),
  metadata: record().optional(),
});
export const AddMessage = z.strictObject({
  role: z.enum(['user', 'assistant', 'system', 'tool']),
  content: text(100_000),
});

export function registerMemoryRoutes(router: Routes, service: MemoryService): void {
  const base = '/api/v1/memory/sessions';
  router.post(base, async (ctx) => {
    const input = await optionalBody(ctx, CreateSession);
    const options: { id?: string; metadata?: Record<string, unknown> } = {};
    const sessionId = input.session_id ?? input.id;
    const metadata = input.metadata;
    if (sessionId !== undefined) options.id = sessionId;
    if (metadata !== undefined) options.metadata = metadata;
    ctx.send(201, { session: await service.createSession(options) });
  });
  router.get(base, async () => ({ sessions: await service.listSessions() }));
  router.get(`${base}/{id}`, async (ctx) => ({ session: await service.getSession(ctx.params.id!) }));
  router.delete(`${base}/{id}`, async (ctx) => {
    await noBody(ctx, 'memory/sessions/{id} DELETE');
    await service.deleteSession(ctx.params.id!);
    return { deleted: ctx.params.id };
  });
  router.post(`${base}/{id}/messages`, async (ctx) => {
    const { role, content } = await body(ctx, AddMessage);
    ctx.send(201, { message: await service.addMessage(ctx.params.id!, { role, content }) });
  });
  router.get(`${base}/{id}/messages`, async (ctx) => ({
    messages: await service.messages(ctx.params.id!, queryInt(ctx.query, 'limit', 1, 10_000)),
  }));
}
