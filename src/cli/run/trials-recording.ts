/**
 * `arena trials --store memory|PATH|postgres://…` (or ARENA_STORE): records the job's plan, each trial
 * and the final report into that event store (src/events/trials-progress.ts), so an `arena serve` on the
 * same store follows the trials live in its web console's Trials view.
 */
import { storeSpec } from '../../events/store-spec.js';
import type { TrialsRecorder } from '../../events/trials-progress.js';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';

export interface TrialsRecording {
  recorder: TrialsRecorder;
  /** writes what is pending, then closes the store */
  close(): Promise<void>;
}

export async function openTrialsRecording(
  flag: string | undefined,
  ctx: CliContext,
): Promise<TrialsRecording | undefined> {
  const spec = storeSpec(flag, ctx.env);
  if (spec === undefined) return undefined;
  if (spec.trim() === '') throw new UsageError('--store needs a SQLite file path, a postgres:// URL or "memory"');
  const [{ openReadyEventStore }, { createTrialsRecorder }] = await Promise.all([
    import('../../events/open.js'),
    import('../../events/trials-progress.js'),
  ]);
  const opened = await openReadyEventStore(spec, { cwd: ctx.cwd });
  const recorder = createTrialsRecorder(opened.store);
  ctx.stderr.write(
    `trials: recording job ${recorder.id} in ${opened.location} (arena serve --store on it shows the Trials view)\n`,
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
