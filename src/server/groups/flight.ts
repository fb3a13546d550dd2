/** Flight group: the flight recorder's timeline, one record, diagnostics and replay. */
import type { Router } from '../router.js';
import { asObject, queryInt, type Awaitable } from './input.js';

export interface TimelineQuery {
  limit?: number;
  since?: string;
  type?: string;
}

export interface FlightService {
  timeline(query: TimelineQuery): Awaitable<unknown>;
  /** NotFoundError when unknown */
  record(id: string): Awaitable<unknown>;
  diagnostics(): Awaitable<unknown>;
  /** replays recorded actions (or a selection) against the live target */
  replay(request: Record<string, unknown>, signal: AbortSignal): Awaitable<unknown>;
}

export function registerFlightRoutes(router: Router, service: FlightService): void {
  const base = '/api/v1/flight';
  router.get(`${base}/timeline`, async (ctx) => {
    const query: TimelineQuery = {};
    const limit = queryInt(ctx.query, 'limit', 1, 100_000);
    if (limit !== undefined) query.limit = limit;
    const since = ctx.query.get('since');
    if (since) query.since = since;
    const type = ctx.query.get('type');
    if (type) query.type = type;
    return service.timeline(query);
  });
  router.get(`${base}/records/{id}`, async (ctx) => service.record(ctx.params.id!));
  router.get(`${base}/diagnostics`, async () => service.diagnostics());
  router.post(`${base}/replay`, async (ctx) => service.replay(asObject((await ctx.optionalJSON()) ?? {}), ctx.signal));
}
