/**
 * GET /metrics: the Prometheus text exposition. One route registration, so it
 * mounts the same way on `arena serve`, `arena target serve` and a proxy's
 * control port. Auth is the router's (X-API-Key or Authorization: Bearer).
 */
import type { Routes } from '../routes.js';
import { sendMetrics, type ArenaMetrics } from '../../protocol/metrics.js';

export function registerMetricsRoute(routes: Routes, metrics: () => Promise<ArenaMetrics>): void {
  routes.get('/metrics', async (ctx) => {
    await sendMetrics(await metrics(), ctx.req, ctx.res);
  });
}
