/** Workflow group: list, get and execute workflows; their past executions. */
import type { Routes } from '../routes.js';
import { body, optionalBody, record, z } from '../body.js';
import type { Awaitable } from './input.js';

/** a definition; the workflow validator then reports every unknown key and wrong type, with its path */
export const WorkflowDefinition = record();
export const Execute = z.strictObject({ input: z.unknown().optional() });

export interface WorkflowApi {
  list(): Awaitable<unknown[]>;
  /** NotFoundError when unknown */
  get(id: string): Awaitable<unknown>;
  /** registers a workflow definition (validated; UsageError when invalid) */
  register(definition: Record<string, unknown>): Awaitable<unknown>;
  execute(id: string, input: unknown, signal: AbortSignal): Awaitable<unknown>;
  executions(id: string): Awaitable<unknown[]>;
}

export function registerWorkflowRoutes(router: Routes, service: WorkflowApi): void {
  const base = '/api/v1/workflows';
  router.get(base, async () => ({ workflows: await service.list() }));
  // the workflow validator reports every unknown key and wrong type of a definition, with its path
  router.post(base, async (ctx) =>
    ctx.send(201, { workflow: await service.register(await body(ctx, WorkflowDefinition)) }),
  );
  router.get(`${base}/{id}`, async (ctx) => ({ workflow: await service.get(ctx.params.id!) }));
  router.post(`${base}/{id}/execute`, async (ctx) => {
    const { input } = await optionalBody(ctx, Execute);
    return service.execute(ctx.params.id!, input, ctx.signal);
  });
  router.get(`${base}/{id}/executions`, async (ctx) => ({ executions: await service.executions(ctx.params.id!) }));
}
