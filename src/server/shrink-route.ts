/**
 * GET /arena/shrinks (and /api/v1/arena/shrinks): the `arena shrink --store …`
 * jobs recorded in the server's event store, newest first, with the smallest
 * failing set so far, the candidate being tried, runs spent and, once shrunk,
 * the minimal faults and their certificate. The web console's Shrink view
 * polls it: a shrink runs in its own process, so its progress is read from
 * the store rather than this server's event stream. Read-only.
 */
import type { EventStore } from '../arena/event-store.js';
import type { ShrinkReply } from '../events/shrink-job.js';
import { parseLimit } from './regress-route.js';
import type { Router } from './router.js';
import { storeName } from './trials-route.js';

export function registerShrinkRoutes(router: Router, store: EventStore): void {
  for (const prefix of ['/arena', '/api/v1/arena']) {
    router.get(`${prefix}/shrinks`, async (ctx): Promise<ShrinkReply> => {
      const limit = parseLimit(ctx.query.get('limit'));
      const { readShrinkJobs } = await import('../events/shrink-progress.js');
      return { store: storeName(store), jobs: await readShrinkJobs(store, limit) };
    });
  }
}
