/**
 * What an `arena worker` runs, by kind of run (src/arena/queue): a regress arm on a fresh embedded
 * runtime, a round of trials or a shrink candidate's run on a fresh target built from the run's
 * TargetRef: a target file (relative paths against the worker's working directory, so workers run
 * from the same checkout as the command that queued the runs) or the embedded runtime.
 */
import { resolve } from 'node:path';
import type { Target } from '../arena/providers.js';
import type { TargetRef } from '../arena/queue/requests.js';
import type { RunExecutors } from '../arena/queue/worker.js';
import { createTargetArena } from '../arena/regression/target-arena.js';
import { runShrinkRunOnTarget } from '../arena/shrink/on-queue.js';
import { roundTargetSeed, runTrialRoundOnTarget } from '../arena/trials/block.js';
import { embeddedTargetFactory, createEmbeddedTarget } from '../targets/embedded/index.js';

export interface WorkerContext {
  cwd: string;
  env: Record<string, string | undefined>;
}

/** a fresh target for one run; `workload: false` for trials (their own requests are the workload) */
export async function targetFromRef(
  ref: TargetRef,
  seed: number,
  ctx: WorkerContext,
  signal: AbortSignal,
  workload?: false,
): Promise<Target> {
  const extras = workload === false ? { workload: false as const } : {};
  if (ref.file === undefined)
    return createEmbeddedTarget({ seed, ...(ref.strategy !== undefined ? { strategy: ref.strategy } : {}), ...extras });
  const { loadTargetFile } = await import('../targets/file.js');
  const loaded = await loadTargetFile(resolve(ctx.cwd, ref.file), ref.file);
  return loaded.create({
    seed,
    ...(ref.strategy !== undefined ? { strategy: ref.strategy } : {}),
    env: ctx.env,
    signal,
    ...extras,
  });
}

export function workerExecutors(ctx: WorkerContext): RunExecutors {
  const arena = createTargetArena({ targetFactory: embeddedTargetFactory });
  return {
    regress: ({ kind: _, ...request }, signal) => arena.runArm({ ...request, signal }),
    trial: async (request, signal) =>
      runTrialRoundOnTarget(
        await targetFromRef(request.target, roundTargetSeed(request.seed, request.round), ctx, signal, false),
        request,
        signal,
      ),
    shrink: async (request, signal) =>
      runShrinkRunOnTarget(await targetFromRef(request.target, request.seed, ctx, signal), request, signal),
  };
}
