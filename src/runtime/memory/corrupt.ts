/**
 * How the `memory_corrupt` fault damages a stored value: a real change of the
 * data (a flipped character, a shifted number, a dropped field), always
 * different from the original so the damage is never a no-op.
 */
import type { Random } from '../../shared/random.js';
import type { JsonValue } from './canonical.js';

export function corruptValue(value: JsonValue, random: Random): JsonValue {
  if (value === null) return random.int(1, 1000);
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') {
    const shifted = value + random.int(1, 1000) * (random.next() < 0.5 ? -1 : 1);
    // huge magnitudes absorb a small shift
    return shifted !== value ? shifted : -value;
  }
  if (typeof value === 'string') {
    if (value.length === 0) return String.fromCharCode(random.int(33, 126));
    const at = random.int(0, value.length - 1);
    const code = value.charCodeAt(at);
    // xor with a non-zero mask so the character always changes
    const flipped = String.fromCharCode(code ^ random.int(1, 31) || 0x3f);
    return value.slice(0, at) + flipped + value.slice(at + 1);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [random.int(0, 1000)];
    const copy = [...value];
    const at = random.int(0, copy.length - 1);
    copy[at] = corruptValue(copy[at]!, random);
    return copy;
  }
  const keys = Object.keys(value);
  if (keys.length === 0) return { corrupted: true };
  const key = keys[random.int(0, keys.length - 1)]!;
  const copy = { ...value };
  if (random.next() < 0.3) delete copy[key];
  else copy[key] = corruptValue(copy[key]!, random);
  return copy;
}
