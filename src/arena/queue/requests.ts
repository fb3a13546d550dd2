/**
 * What each kind of run on the queue carries (./queue.ts): plain JSON, for a worker on another machine
 * to run it as the command that queued it would have.
 */
import type { ArmRunRequest } from '../regression/types.js';
import type { Scenario } from '../scenario/types.js';
import type { Block } from '../trials/plan.js';

/**
 * Which target a worker builds for a trial or shrink run. `file` is a target file, relative to the
 * worker's working directory (the coordinator sends it relative to its own, so both run from the same
 * checkout) or absolute; without it the worker builds the embedded runtime.
 */
export interface TargetRef {
  file?: string;
  /** the embedded runtime's recovery strategy (shrink of an embedded run) */
  strategy?: Record<string, unknown>;
}

/** a regress arm run: an ArmRunRequest without its signal */
export type QueuedArmRun = { kind: 'regress' } & Omit<ArmRunRequest, 'signal'>;

/**
 * A round of trials (../trials/on-queue.ts): its blocks (one per arm) in the planned order. A round,
 * not a block: the round's arms share one target as they share it locally, and a target is started
 * once per round, not per block.
 */
export interface QueuedTrialRound {
  kind: 'trial';
  target: TargetRef;
  seed: number;
  scenario?: Scenario;
  round: number;
  blocks: Block[];
  recovery_deadline_ms: number;
}

/** one run of a shrink candidate (../shrink/on-queue.ts) */
export interface QueuedShrinkRun {
  kind: 'shrink';
  target: TargetRef;
  seed: number;
  scenario: Scenario;
  time_scale?: number;
}
