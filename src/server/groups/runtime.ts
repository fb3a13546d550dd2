/** Runtime group: start/stop the embedded runtime, its stats, one agent, its strategy. */
import type { Routes } from '../routes.js';
import { body, noBody, optionalBody, record, z } from '../body.js';
import type { Awaitable } from './input.js';

export interface RuntimeService {
  start(): Awaitable<unknown>;
  stop(): Awaitable<unknown>;
  stats(): Awaitable<unknown>;
  /** NotFoundError when there is no such agent */
  agent(id: string): Awaitable<unknown>;
  strategy(): Awaitable<unknown>;
  /** applies a partial strategy live; UsageError when invalid */
  updateStrategy(patch: Record<string, unknown>): Awaitable<unknown>;
  /** the runtime's MCP tools (routes mounted only when given) */
  mcpTools?(): Awaitable<unknown>;
  callMcpTool?(name: string, args: Record<string, unknown>): Awaitable<unknown>;
}

/** a partial strategy; the strategy parser checks every section and field */
export const StrategyPatch = record();
export const ToolCall = z.strictObject({ arguments: record().optional() });

export function registerRuntimeRoutes(router: Routes, service: RuntimeService): void {
  const base = '/api/v1/runtime';
  // a body these take none of is refused before they act: garbage must not stop the runtime
  router.post(`${base}/start`, async (ctx) => (await noBody(ctx, 'runtime/start'), service.start()));
  router.post(`${base}/stop`, async (ctx) => (await noBody(ctx, 'runtime/stop'), service.stop()));
  router.get(`${base}/stats`, async () => service.stats());
  router.get(`${base}/agents/{id}`, async (ctx) => service.agent(ctx.params.id!));
  router.get(`${base}/strategy`, async () => ({ strategy: await service.strategy() }));
  // the strategy parser checks every section and field (unknown ones included) before anything is applied
  router.post(`${base}/strategy`, async (ctx) => ({
    strategy: await service.updateStrategy(await body(ctx, StrategyPatch)),
  }));
  const { mcpTools, callMcpTool } = service;
  if (mcpTools && callMcpTool) {
    router.get(`${base}/mcp/tools`, async () => ({ tools: await mcpTools.call(service) }));
    router.post(`${base}/mcp/tools/{name}/call`, async (ctx) => {
      const input = await optionalBody(ctx, ToolCall);
      return callMcpTool.call(service, ctx.params.name!, input.arguments ?? {});
    });
  }
}
