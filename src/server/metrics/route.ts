/**
 * GET /metrics: the Prometheus text exposition. One route registration, so it
 * mounts the same way on `arena serve`, `arena target serve` and a proxy's
 * control port. Auth is the router's (X-API-Key or Authorization: Bearer).
 */
import type { Routes } from '../routes.js';
import type { ArenaMetrics } from './registry.js';

export function registerMetricsRoute(routes: Routes, metrics: () => Promise<ArenaMetrics>): void {
  routes.get('/metrics', async (ctx) => {
    const m = await metrics();
    const text = await m.text();
    ctx.res.writeHead(200, { 'Content-Type': m.contentType, 'Content-Length': Buffer.byteLength(text) });
    ctx.res.end(ctx.req.method === 'HEAD' ? undefined : text);
  });
}
