/** Agent group: create, list, get and delete agents of the embedded runtime. */
import type { Routes } from '../routes.js';
import { body, id, optionalBody, text, z, noBody } from '../body.js';
import type { Awaitable } from './input.js';

export interface AgentView {
  id: string;
  role: string;
  status: string;
  restarts: number;
}

export interface AgentSpec {
  id?: string;
  role?: string;
  /** the assistant's system instructions */
  instructions?: string;
}

export interface AgentService {
  list(): Awaitable<AgentView[]>;
  /** NotFoundError when there is no such agent */
  get(id: string): Awaitable<AgentView>;
  create(spec: AgentSpec): Awaitable<AgentView>;
  remove(id: string): Awaitable<void>;
  /** one conversation turn with the agent */
  chat(id: string, message: string, signal: AbortSignal): Awaitable<unknown>;
}

export const CreateAgent = z.strictObject({
  id: id().optional(),
  role: id().optional(),
  instructions: text(20_000).optional(),
});
export const AgentChat = z.strictObject({ message: text(100_000) });

export function registerAgentRoutes(router: Routes, service: AgentService): void {
  router.get('/api/v1/agents', async () => ({ agents: await service.list() }));
  router.post('/api/v1/agents', async (ctx) => {
    const { id, role, instructions } = await optionalBody(ctx, CreateAgent);
    const spec: AgentSpec = {};
    if (id !== undefined) spec.id = id;
    if (role !== undefined) spec.role = role;
    if (instructions !== undefined) spec.instructions = instructions;
    ctx.send(201, { agent: await service.create(spec) });
  });
  router.get('/api/v1/agents/{id}', async (ctx) => ({ agent: await service.get(ctx.params.id!) }));
  router.post('/api/v1/agents/{id}/chat', async (ctx) => {
    const { message } = await body(ctx, AgentChat);
    return service.chat(ctx.params.id!, message, ctx.signal);
  });
  router.delete('/api/v1/agents/{id}', async (ctx) => {
    await noBody(ctx, 'agents/{id} DELETE');
    await service.remove(ctx.params.id!);
    return { deleted: ctx.params.id };
  });
}
