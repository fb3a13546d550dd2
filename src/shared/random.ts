/**
 * A seeded random source (mulberry32). Every random choice in the arena goes
 * through one of these so a run is replayable from its seed. A stream for one
 * purpose is a fork, derived from the seed and the purpose's label alone (as
 * Hypothesis and fast-check derive rather than consume): adding, removing or
 * reordering forks and draws elsewhere never shifts it, so a seed replays the
 * same run across versions.
 */
export interface Random {
  /** float in [0, 1) */
  next(): number;
  /** integer in [min, max] inclusive */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /**
   * the stream for one purpose: a function of this stream's seed and the label only, never of the
   * draws made so far; the same label gives the same stream, so each purpose needs its own label
   */
  fork(label: string): Random;
  readonly seed: number;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    seed,
    next,
    int(min, max) {
      return min + Math.floor(next() * (max - min + 1));
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('cannot pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    fork(label) {
      return createRandom(deriveSeed(seed, label));
    },
  };
  return random;
}

/** a fresh seed when the user gave none; printed and reported so the run can be replayed */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * seed × label → a well-mixed 32-bit seed (the murmur3 finaliser over both), consuming nothing: the
 * same pair gives the same stream whatever else was drawn before (Hypothesis-style)
 */
export function deriveSeed(seed: number, label: string): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ hashString(label);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashString(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/**
 * A stream for one purpose that depends only on the seed and the label (not on how many draws
 * other streams made), so the same seed changes the same bytes whatever else ran before.
 */
export function deriveRandom(seed: number, label: string): Random {
  return createRandom(hashString(`${seed >>> 0}:${label}`));
}
