/**
 * Canonical serialisation for memory values: JSON with object keys sorted, so
 * the same value always hashes the same no matter how it was built.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../../shared/errors.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** canonical JSON text of `value`; throws UsageError naming the path of anything not JSON-representable */
export function canonicalize(value: unknown, path = '$'): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value))
        throw new UsageError(`memory value at ${path} is ${value}; only finite numbers can be stored`, {
          code: 'invalid_memory_value',
        });
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v, i) => canonicalize(v, `${path}[${i}]`)).join(',')}]`;
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        throw new UsageError(
          `memory value at ${path} is a ${proto?.constructor?.name ?? 'non-plain object'}; only plain JSON data can be stored`,
          { code: 'invalid_memory_value' },
        );
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalize(record[k], `${path}.${k}`)}`).join(',')}}`;
    }
    default:
      throw new UsageError(`memory value at ${path} is of type ${typeof value}; only JSON data can be stored`, {
        code: 'invalid_memory_value',
      });
  }
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** digest of one entry: binds the key to its value so swapping values between keys is detected */
export function entryDigest(key: string, value: unknown): string {
  return entryDigestOfText(key, canonicalize(value));
}

/** `entryDigest` from the value's canonical text, for a caller that has it already */
export function entryDigestOfText(key: string, canonicalText: string): string {
  return sha256(`${JSON.stringify(key)}=${canonicalText}`);
}

/** root checksum over every entry digest, in key order */
export function rootChecksum(digests: ReadonlyMap<string, string>): string {
  const lines = [...digests.keys()].sort().map((k) => `${JSON.stringify(k)}:${digests.get(k)}`);
  return sha256(lines.join('\n'));
}
