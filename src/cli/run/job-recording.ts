/**
 * `--store memory|PATH|postgres://…` (or ARENA_STORE) on `arena trials` and `arena shrink`: records the
 * job as it runs into that event store (src/events/trials-progress.ts, shrink-progress.ts), so an
 * `arena serve` on the same store follows it live in its web console's Trials or Shrink view.
 */
import type { EventStore } from '../../arena/event-store.js';
import { storeSpec } from '../../events/store-spec.js';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';

export interface JobRecording<R> {
  recorder: R;
  /** writes what is pending, then closes the store */
  close(): Promise<void>;
}

/** the store `--store` or ARENA_STORE names, undefined when neither does; refuses an empty one before anything runs */
export function recordingSpec(flag: string | undefined, ctx: Pick<CliContext, 'env'>): string | undefined {
  const spec = storeSpec(flag, ctx.env);
  if (spec !== undefined && spec.trim() === '')
    throw new UsageError('--store needs a SQLite file path, a postgres:// URL or "memory"', {
      code: 'invalid_store',
    });
  return spec;
}

export async function openJobRecording<R extends { readonly id: string; flush(): Promise<void> }>(
  flag: string | undefined,
  ctx: CliContext,
  /** the command (`trials`, `shrink`) and the console view that shows its jobs */
  job: { command: string; view: string },
  create: (store: EventStore) => Promise<R>,
): Promise<JobRecording<R> | undefined> {
  const spec = recordingSpec(flag, ctx);
  if (spec === undefined) return undefined;
  const { openReadyEventStore } = await import('../../events/open.js');
  const opened = await openReadyEventStore(spec, { cwd: ctx.cwd });
  let recorder: R;
  try {
    recorder = await create(opened.store);
  } catch (err) {
    await opened.close();
    throw err;
  }
  ctx.stderr.write(
    `${job.command}: recording job ${recorder.id} in ${opened.location} (arena serve --store on it shows the ${job.view} view)\n`,
  );
  return {
    recorder,
    async close() {
      try {
        await recorder.flush();
      } finally {
        await opened.close();
      }
    },
  };
}
