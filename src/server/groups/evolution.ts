/**
 * Evolution and RuntimeEvolution groups share one shape: status, runs, start
 * a run, one run. They differ in what evolves (the arena's scenarios vs the
 * runtime's recovery strategy), so each is mounted under its own prefix.
 */
import type { Routes } from '../routes.js';
import { optionalBody, record } from '../body.js';
import type { Awaitable } from './input.js';

export interface EvolutionService {
  status(): Awaitable<unknown>;
  runs(): Awaitable<unknown[]>;
  /** NotFoundError when unknown */
  run(id: string): Awaitable<unknown>;
  /** starts a run (it outlives the request); ConflictError when one is running */
  startRun(options: Record<string, unknown>): Awaitable<unknown>;
}

/** a run's options; the service's own parser checks them */
export const RunOptions = record();

export function registerEvolutionRoutes(router: Routes, base: string, service: EvolutionService): void {
  router.get(`${base}/status`, async () => service.status());
  router.get(`${base}/runs`, async () => ({ runs: await service.runs() }));
  router.post(`${base}/runs`, async (ctx) => {
    // the service's own parser rejects unknown fields and wrong types, naming them
    const run = await service.startRun(await optionalBody(ctx, RunOptions));
    ctx.send(201, run);
  });
  router.get(`${base}/runs/{id}`, async (ctx) => service.run(ctx.params.id!));
}
