/** Flight group: the flight recorder's timeline, one record, diagnostics and replay. */
import type { Router } from '../router.js';
import { asObject, type Awaitable } from './input.js';

export interface FlightService {
  /** query-string filters as given (since, until, agent, category, type, session, success, limit); UsageError when invalid */
  timeline(query: Record<string, string>): Awaitable<unknown>;
  /** NotFoundError when unknown */
  record(id: string): Awaitable<unknown>;
  diagnostics(query: Record<string, string>): Awaitable<unknown>;
  /** replays recorded actions (or a selection) against the live target */
  replay(request: Record<string, unknown>, signal: AbortSignal): Awaitable<unknown>;
}

export function registerFlightRoutes(router: Router, service: FlightService): void {
  const base = '/api/v1/flight';
  router.get(`${base}/timeline`, async (ctx) => service.timeline(Object.fromEntries(ctx.query)));
  router.get(`${base}/records/{id}`, async (ctx) => service.record(ctx.params.id!));
  router.get(`${base}/diagnostics`, async (ctx) => service.diagnostics(Object.fromEntries(ctx.query)));
  router.post(`${base}/replay`, async (ctx) => service.replay(asObject((await ctx.optionalJSON()) ?? {}), ctx.signal));
}
