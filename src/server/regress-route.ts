/**
 * GET /arena/regress (and /api/v1/arena/regress): the `regress --workers`
 * jobs on the server's PostgreSQL database, newest first, with their runs per
 * arm, current estimate and look or verdict, for the web console's Regress
 * panel, which polls it. Read-only. On a SQLite or memory store there is no
 * run queue: the answer says so (`available: false`) instead of an empty
 * list that would look like "no regress running".
 */
import { UsageError } from '../shared/errors.js';
import type { EventStore } from '../arena/event-store.js';
import type { PostgresEventStore } from '../events/postgres.js';
import type { RegressReply } from '../events/regress-job.js';
import type { Router } from './router.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function isPostgres(store: EventStore): store is PostgresEventStore {
  // duck-typed: importing the class would load the PostgreSQL store into every server
  return (
    typeof (store as Partial<PostgresEventStore>).query === 'function' &&
    typeof (store as Partial<PostgresEventStore>).location === 'string' &&
    (store as Partial<PostgresEventStore>).location!.startsWith('postgres')
  );
}

/** `?limit=`: how many of the newest jobs (also GET /arena/trials and /arena/shrinks) */
export function parseLimit(text: string | null): number {
  if (text === null) return DEFAULT_LIMIT;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_LIMIT)
    throw new UsageError(`query parameter limit must be an integer from 1 to ${MAX_LIMIT}, got "${text}"`, {
      code: 'invalid_input',
    });
  return n;
}

export function registerRegressRoutes(router: Router, store: EventStore): void {
  for (const prefix of ['/arena', '/api/v1/arena']) {
    router.get(`${prefix}/regress`, async (ctx): Promise<RegressReply> => {
      const limit = parseLimit(ctx.query.get('limit'));
      if (!isPostgres(store)) {
        return {
          available: false,
          reason:
            'regress --workers needs a PostgreSQL store: start arena serve with --store postgres://… (the database the workers use)',
          jobs: [],
        };
      }
      const { readRegressJobs } = await import('../events/regress-progress.js');
      return { available: true, store: store.location, jobs: await readRegressJobs(store, limit) };
    });
  }
}
