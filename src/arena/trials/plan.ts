/**
 * The order trials run in (DESIGN §14), deterministic from the seed and fair to every arm:
 * N rounds; in each round every arm (clean, faulted, one per intensity) runs one block, in an order
 * shuffled afresh per round; in each block every task runs once, in an order shuffled afresh per block.
 * So each arm gets the same N tries per task, spread over the whole invocation (a target that drifts
 * over time drifts for every arm alike), and no arm always goes first or right after a faulted block.
 * Faults act for a whole faulted block: applied at its start, reverted at its end, and the target
 * must be healthy again before the next block starts.
 */
import { createRandom, type Random } from '../../shared/random.js';
import type { TrialsPlan } from './report.js';

export interface Arm {
  /** `clean`, `faulted` or `intensity=0.1` */
  name: string;
  faulted: boolean;
  /** the per-call probability set on the scenario's llm_failure / tool_fault actions */
  intensity?: number;
}

export interface Block {
  round: number;
  arm: Arm;
  tasks: string[];
}

export function armsFor(hasScenario: boolean, intensities: readonly number[]): Arm[] {
  const arms: Arm[] = [{ name: 'clean', faulted: false }];
  if (hasScenario) arms.push({ name: 'faulted', faulted: true });
  for (const intensity of intensities) arms.push({ name: `intensity=${intensity}`, faulted: true, intensity });
  return arms;
}

function shuffled<T>(items: readonly T[], random: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `random` is the run's seeded source: each round's and block's order is its own fork */
export function planBlocks(random: Random, rounds: number, arms: readonly Arm[], tasks: readonly string[]): Block[] {
  const blocks: Block[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const arm of shuffled(arms, random.fork(`trials.round.${round}`)))
      blocks.push({ round, arm, tasks: shuffled(tasks, random.fork(`trials.round.${round}.${arm.name}`)) });
  }
  return blocks;
}

/** what a live view is told before the first trial, wherever the blocks run */
export function describePlan(
  options: { n: number; ks: readonly number[]; seed: number; scenario?: { name: string } | undefined },
  tasks: readonly string[],
  arms: readonly Arm[],
  blocks: readonly Block[],
): TrialsPlan {
  return {
    n: options.n,
    ks: [...options.ks],
    seed: options.seed,
    scenario: options.scenario?.name ?? null,
    tasks: [...tasks],
    arms: arms.map((a) => ({ name: a.name, ...(a.intensity !== undefined ? { intensity: a.intensity } : {}) })),
    total: blocks.reduce((s, b) => s + b.tasks.length, 0),
  };
}

/**
 * The arms and the seeded blocks of one `arena trials`, as a local run, a run on workers and a dry run
 * all plan them (the blocks' order comes from the seed's `trials.plan` fork alone)
 */
export function planTrials(
  options: { n: number; seed: number; scenario?: unknown; intensities?: readonly number[] | undefined },
  tasks: readonly string[],
): { arms: Arm[]; blocks: Block[]; total: number } {
  const arms = armsFor(options.scenario !== undefined, options.intensities ?? []);
  const blocks = planBlocks(createRandom(options.seed).fork('trials.plan'), options.n, arms, tasks);
  return { arms, blocks, total: blocks.reduce((s, b) => s + b.tasks.length, 0) };
}
