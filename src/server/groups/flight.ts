/** Flight group: the flight recorder's timeline, one record, diagnostics and replay. */
import type { Routes } from '../routes.js';
import { body, id, int, z } from '../body.js';
import type { Awaitable } from './input.js';

const bound = () => z.union([z.string().max(100), z.number().int().min(0)]);
/** a replay names what it replays: a body without a selection (or with anything else) is refused */
export const Replay = z.strictObject({
  all: z.literal(true).optional(),
  ids: z.array(id()).min(1, 'must name at least one action id').max(1000).optional(),
  since: bound().optional(),
  until: bound().optional(),
  agent: id().optional(),
  category: id().optional(),
  type: id().optional(),
  session: id().optional(),
  success: z.boolean().optional(),
  failed_only: z.boolean().optional(),
  limit: int(1, 1000).optional(),
});

export interface FlightService {
  /** query-string filters as given (since, until, agent, category, type, session, success, limit); UsageError when invalid */
  timeline(query: Record<string, string>): Awaitable<unknown>;
  /** NotFoundError when unknown */
  record(id: string): Awaitable<unknown>;
  diagnostics(query: Record<string, string>): Awaitable<unknown>;
  /** replays recorded actions (or a selection) against the live target */
  replay(request: Record<string, unknown>, signal: AbortSignal): Awaitable<unknown>;
}

export function registerFlightRoutes(router: Routes, service: FlightService): void {
  const base = '/api/v1/flight';
  router.get(`${base}/timeline`, async (ctx) => service.timeline(Object.fromEntries(ctx.query)));
  router.get(`${base}/records/{id}`, async (ctx) => service.record(ctx.params.id!));
  router.get(`${base}/diagnostics`, async (ctx) => service.diagnostics(Object.fromEntries(ctx.query)));
  router.post(`${base}/replay`, async (ctx) => {
    const request = Object.fromEntries(Object.entries(await body(ctx, Replay)).filter(([, v]) => v !== undefined));
    return service.replay(request, ctx.signal);
  });
}
