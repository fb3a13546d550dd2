/**
 * GET /arena/trials (and /api/v1/arena/trials): the `arena trials --store …`
 * jobs recorded in the server's event store, newest first, with per task and
 * arm the trials done, successes and pass^k so far, the reliability surface,
 * and once finished the report the command printed. The web console's Trials
 * view polls it: trials run in their own process, so their progress is read
 * from the store rather than this server's event stream. Read-only.
 */
import type { EventStore } from '../arena/event-store.js';
import type { TrialsReply } from '../events/trials-job.js';
import { parseLimit } from './regress-route.js';
import type { Router } from './router.js';

/** what the reply calls the store: its URL (no password) or file, as `--store` named it (also GET /arena/shrinks) */
export function storeName(store: EventStore): string {
  const named = store as { location?: unknown; path?: unknown };
  if (typeof named.location === 'string') return named.location;
  return typeof named.path === 'string' ? named.path : 'memory';
}

export function registerTrialsRoutes(router: Router, store: EventStore): void {
  for (const prefix of ['/arena', '/api/v1/arena']) {
    router.get(`${prefix}/trials`, async (ctx): Promise<TrialsReply> => {
      const limit = parseLimit(ctx.query.get('limit'));
      const { readTrialsJobs } = await import('../events/trials-progress.js');
      return { store: storeName(store), jobs: await readTrialsJobs(store, limit) };
    });
  }
}
