/**
 * An agent's key/value memory with an integrity checksum. The checksum (one
 * sha256 digest per entry plus a root digest over them) lives apart from the
 * entries, so damage to the entries — the `memory_corrupt` fault — is caught
 * by `verify()` and repaired by restoring the last checkpoint.
 *
 * Stored values are deep-frozen, so a value can change only by being replaced
 * (which is what the fault does). `verify()` therefore hashes again only the
 * entries whose value is not the one it last found sound: the embedded runtime
 * checks every agent's memory every 50 ms, and hashing all 64 entries each time
 * was half of what the idle runtime allocated (5 of 10 MB/s) and a quarter of
 * its CPU. Checkpoints share the frozen values.
 */
import type { Clock } from '../../shared/clock.js';
import { systemClock } from '../../shared/clock.js';
import type { Random } from '../../shared/random.js';
import { UsageError } from '../../shared/errors.js';
import { deepFreeze } from '../../shared/deep-freeze.js';
import { canonicalize, entryDigest, entryDigestOfText, rootChecksum, type JsonValue } from './canonical.js';
import { corruptValue } from './corrupt.js';

export interface MemoryVerification {
  ok: boolean;
  /** one line per damaged, missing or unexpected entry */
  problems: string[];
}

export interface AgentMemory {
  set(key: string, value: unknown): void;
  /** a copy of the stored value (callers cannot alter memory behind the checksum's back) */
  get(key: string): unknown;
  has(key: string): boolean;
  delete(key: string): boolean;
  /** copies of every entry, in key order */
  entries(): Array<[string, unknown]>;
  readonly size: number;
  /** the root checksum as last written through `set`/`delete`/restore */
  readonly checksum: string;
  verify(): MemoryVerification;
  /** the fault: really alters stored entries without updating the checksum; returns the damaged keys */
  corrupt(random: Random): string[];
  /** deep copy of the entries and their checksum */
  checkpoint(): void;
  /** replaces the entries by the last checkpoint; false when there is none */
  restoreFromCheckpoint(): boolean;
  /** clock time (ms) of the last checkpoint */
  readonly lastCheckpointAt?: number;
}

export interface AgentMemoryOptions {
  clock?: Clock;
}

interface Snapshot {
  values: Map<string, JsonValue>;
  digests: Map<string, string>;
  sound: Map<string, JsonValue>;
  root: string;
}

export function createAgentMemory(options: AgentMemoryOptions = {}): AgentMemory {
  const clock = options.clock ?? systemClock;
  let values = new Map<string, JsonValue>();
  // kept apart from `values`: corruption touches only the entries
  let digests = new Map<string, string>();
  // per key, the (frozen) value last found to match its digest: the same value needs no new hash
  let sound = new Map<string, JsonValue>();
  let root = rootChecksum(digests);
  // the root is recomputed from the digests only when they changed since it was last checked
  let rootChecked = true;
  let saved: Snapshot | undefined;
  let lastCheckpointAt: number | undefined;

  const checkKey = (key: unknown): string => {
    if (typeof key !== 'string' || key === '')
      throw new UsageError(`memory key must be a non-empty string, got ${JSON.stringify(key)}`, {
        code: 'invalid_memory_key',
      });
    return key;
  };

  return {
    set(key, value) {
      checkKey(key);
      const text = canonicalize(value, key);
      const stored = deepFreeze(JSON.parse(text) as JsonValue);
      values.set(key, stored);
      digests.set(key, entryDigestOfText(key, text));
      sound.set(key, stored);
      root = rootChecksum(digests);
      rootChecked = false;
    },
    get(key) {
      return values.has(key) ? structuredClone(values.get(key)) : undefined;
    },
    has: (key) => values.has(key),
    delete(key) {
      const existed = values.delete(key);
      digests.delete(key);
      sound.delete(key);
      root = rootChecksum(digests);
      rootChecked = false;
      return existed;
    },
    entries() {
      return [...values.keys()].sort().map((k) => [k, structuredClone(values.get(k))] as [string, unknown]);
    },
    get size() {
      return values.size;
    },
    get checksum() {
      return root;
    },
    verify() {
      const problems: string[] = [];
      for (const [key, value] of values) {
        const expected = digests.get(key);
        if (expected === undefined) problems.push(`entry "${key}" is not covered by the checksum`);
        else if (sound.get(key) === value) continue;
        else if (entryDigest(key, value) !== expected) problems.push(`entry "${key}" does not match its checksum`);
        else sound.set(key, value);
      }
      for (const key of digests.keys()) if (!values.has(key)) problems.push(`entry "${key}" is missing`);
      if (problems.length === 0 && !rootChecked) {
        if (rootChecksum(digests) !== root) problems.push('root checksum does not match the entry digests');
        else rootChecked = true;
      }
      return { ok: problems.length === 0, problems };
    },
    corrupt(random) {
      const keys = [...values.keys()].sort();
      if (keys.length === 0) {
        // nothing to damage: plant an entry the checksum does not cover
        const key = `corrupt-${random.int(0, 0xffffff).toString(16)}`;
        values.set(key, 'garbage');
        return [key];
      }
      const count = random.int(1, Math.max(1, Math.ceil(keys.length / 2)));
      const damaged: string[] = [];
      const pool = [...keys];
      for (let i = 0; i < count && pool.length > 0; i++) {
        const key = pool.splice(random.int(0, pool.length - 1), 1)[0]!;
        values.set(key, deepFreeze(corruptValue(values.get(key)!, random)));
        damaged.push(key);
      }
      return damaged.sort();
    },
    checkpoint() {
      // the values are frozen: the checkpoint shares them, and only its maps are its own
      saved = { values: new Map(values), digests: new Map(digests), sound: new Map(sound), root };
      lastCheckpointAt = clock.now();
    },
    restoreFromCheckpoint() {
      if (!saved) return false;
      values = new Map(saved.values);
      digests = new Map(saved.digests);
      sound = new Map(saved.sound);
      root = saved.root;
      rootChecked = false;
      return true;
    },
    get lastCheckpointAt() {
      return lastCheckpointAt;
    },
  };
}
