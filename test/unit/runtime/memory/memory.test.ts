import { describe, expect, it } from 'vitest';
import { createAgentMemory } from '../../../../src/runtime/memory/index.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { createRandom } from '../../../../src/shared/random.js';
import { UsageError } from '../../../../src/shared/errors.js';

function filled() {
  const clock = new ManualClock();
  const memory = createAgentMemory({ clock });
  memory.set('answer', 42);
  memory.set('name', 'agent-1');
  memory.set('plan', { steps: ['fetch', 'plan'], done: false });
  memory.set('flags', [true, null, 3.5]);
  return { clock, memory };
}

describe('createAgentMemory', () => {
  it('stores copies of JSON values and verifies clean', () => {
    const { memory } = filled();
    expect(memory.size).toBe(4);
    expect(memory.get('plan')).toEqual({ steps: ['fetch', 'plan'], done: false });
    const plan = memory.get('plan') as { done: boolean };
    plan.done = true; // mutating the copy must not reach memory
    expect(memory.get('plan')).toEqual({ steps: ['fetch', 'plan'], done: false });
    expect(memory.verify()).toEqual({ ok: true, problems: [] });
    expect(memory.entries().map(([k]) => k)).toEqual(['answer', 'flags', 'name', 'plan']);
    expect(memory.has('name')).toBe(true);
    expect(memory.get('nope')).toBeUndefined();
  });

  it('checksum is canonical: key order inside objects does not matter, content does', () => {
    const a = createAgentMemory();
    const b = createAgentMemory();
    a.set('x', { p: 1, q: 2 });
    b.set('x', { q: 2, p: 1 });
    expect(a.checksum).toBe(b.checksum);
    b.set('x', { q: 2, p: 3 });
    expect(a.checksum).not.toBe(b.checksum);
    expect(a.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('rejects values that are not JSON data, naming the path', () => {
    const memory = createAgentMemory();
    expect(() => memory.set('k', { inner: [1, () => 1] })).toThrow(UsageError);
    expect(() => memory.set('k', { inner: [1, () => 1] })).toThrow(/k\.inner\[1\]/);
    expect(() => memory.set('k', Number.NaN)).toThrow(/finite/);
    expect(() => memory.set('k', new Date())).toThrow(/Date/);
    expect(() => memory.set('', 1)).toThrow(/key/);
  });

  it('corrupt really alters stored entries: verify fails and get returns the altered value', () => {
    const { memory } = filled();
    const before = Object.fromEntries(memory.entries());
    const damaged = memory.corrupt(createRandom(7));
    expect(damaged.length).toBeGreaterThan(0);
    for (const key of damaged) expect(memory.get(key)).not.toEqual(before[key]);
    const result = memory.verify();
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual(damaged.map((k) => `entry "${k}" does not match its checksum`));
  });

  it('corruption always changes something, for many seeds and value kinds', () => {
    for (let seed = 0; seed < 200; seed++) {
      const memory = createAgentMemory();
      memory.set('n', 1e300);
      memory.set('s', '');
      memory.set('o', {});
      memory.set('a', []);
      memory.set('z', null);
      memory.set('b', false);
      memory.corrupt(createRandom(seed));
      expect(memory.verify().ok, `seed ${seed}`).toBe(false);
    }
  });

  it('a memory verified clean many times still catches the next corruption, and stays caught until repaired', () => {
    for (let seed = 0; seed < 100; seed++) {
      const { memory } = filled();
      memory.checkpoint();
      for (let i = 0; i < 3; i++) expect(memory.verify().ok).toBe(true);
      const damaged = memory.corrupt(createRandom(seed));
      const first = memory.verify();
      expect(first.ok, `seed ${seed}`).toBe(false);
      expect([...first.problems].sort()).toEqual(damaged.map((k) => `entry "${k}" does not match its checksum`).sort());
      expect(memory.verify()).toEqual(first);
      expect(memory.restoreFromCheckpoint()).toBe(true);
      expect(memory.verify().ok, `seed ${seed}`).toBe(true);
      // the restored entries are the checkpoint's: damaging them again is caught again
      memory.corrupt(createRandom(seed + 1000));
      expect(memory.verify().ok, `seed ${seed}`).toBe(false);
    }
  });

  it('corrupting an empty memory plants an entry the checksum does not cover', () => {
    const memory = createAgentMemory();
    const [key] = memory.corrupt(createRandom(1));
    expect(memory.has(key!)).toBe(true);
    expect(memory.verify().problems).toEqual([`entry "${key}" is not covered by the checksum`]);
  });

  it('checkpoint + restore repairs corruption and records when it was taken', async () => {
    const { memory, clock } = filled();
    expect(memory.restoreFromCheckpoint()).toBe(false);
    await clock.advance(1500);
    memory.checkpoint();
    expect(memory.lastCheckpointAt).toBe(1500);
    const snapshot = memory.entries();
    memory.corrupt(createRandom(3));
    memory.set('later', 'written after the checkpoint');
    expect(memory.verify().ok).toBe(false);
    expect(memory.restoreFromCheckpoint()).toBe(true);
    expect(memory.verify().ok).toBe(true);
    expect(memory.entries()).toEqual(snapshot);
    // the checkpoint is a deep copy: corrupting again and restoring again still works
    memory.corrupt(createRandom(4));
    expect(memory.restoreFromCheckpoint()).toBe(true);
    expect(memory.entries()).toEqual(snapshot);
  });

  it('delete keeps the checksum consistent', () => {
    const { memory } = filled();
    expect(memory.delete('answer')).toBe(true);
    expect(memory.delete('answer')).toBe(false);
    expect(memory.verify().ok).toBe(true);
  });
});
