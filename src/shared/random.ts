/**
 * A seeded random source (mulberry32). Every random choice in the arena goes
 * through one of these so a run is replayable from its seed.
 */
export interface Random {
  /** float in [0, 1) */
  next(): number;
  /** integer in [min, max] inclusive */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** a new independent stream derived from this one */
  fork(label?: string): Random;
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
    fork(label = '') {
      return createRandom((Math.floor(next() * 2 ** 32) ^ hashString(label)) >>> 0);
    },
  };
  return random;
}

/** a fresh seed when the user gave none; printed and reported so the run can be replayed */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
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
