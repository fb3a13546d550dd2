/**
 * Toxiproxy's toxics as direction-aware stages of the TCP proxy (DESIGN §17):
 * the types, their attributes (Toxiproxy's names and units), and their
 * validation. A toxic acts on one direction (`stream`) of the connections
 * its `toxicity` picks; the arena's own faults (fault-spec.ts) act on both.
 */
import { MAX_FAULT_MS } from './fault-spec.js';

export const TOXIC_TYPES = [
  'latency',
  'bandwidth',
  'slow_close',
  'timeout',
  'reset_peer',
  'slicer',
  'limit_data',
] as const;
export type ToxicType = (typeof TOXIC_TYPES)[number];

/** upstream = client → server, downstream = server → client (Toxiproxy's words) */
export type ToxicStream = 'upstream' | 'downstream';

export type ToxicAttributes =
  | { type: 'latency'; latency: number; jitter: number }
  /** KB/s (1000 bytes); 0 lets nothing through, as in Toxiproxy */
  | { type: 'bandwidth'; rate: number }
  | { type: 'slow_close'; delay: number }
  /** ms; 0 = hold for ever */
  | { type: 'timeout'; timeout: number }
  | { type: 'reset_peer'; timeout: number }
  /** delay in µs */
  | { type: 'slicer'; average_size: number; size_variation: number; delay: number }
  | { type: 'limit_data'; bytes: number };

export interface ToxicSpec {
  name: string;
  stream: ToxicStream;
  /** chance, per connection, that the toxic acts on it */
  toxicity: number;
  attributes: ToxicAttributes;
}

/** attribute names per type, in the order Toxiproxy prints them */
export const TOXIC_ATTRIBUTES: Record<ToxicType, readonly string[]> = {
  latency: ['latency', 'jitter'],
  bandwidth: ['rate'],
  slow_close: ['delay'],
  timeout: ['timeout'],
  reset_peer: ['timeout'],
  slicer: ['average_size', 'size_variation', 'delay'],
  limit_data: ['bytes'],
};

/** bounds per attribute: ms attributes share the TCP proxy's hour; sizes and rates are bounded to stay sane */
const MAX: Record<string, number> = {
  latency: MAX_FAULT_MS,
  jitter: MAX_FAULT_MS,
  delay: MAX_FAULT_MS,
  timeout: MAX_FAULT_MS,
  rate: 1e12,
  average_size: 1 << 30,
  size_variation: 1 << 30,
  bytes: Number.MAX_SAFE_INTEGER,
};

export function isToxicType(type: string): type is ToxicType {
  return (TOXIC_TYPES as readonly string[]).includes(type);
}

/** a bad attribute: the message names it (`attributes.latency: ...`) */
export class ToxicAttributeError extends Error {}

/**
 * Reads a type's attributes over `base` (the current values on update, zeros
 * on create, as Toxiproxy's JSON decoding does); throws a ToxicAttributeError
 * naming the field.
 */
export function parseToxicAttributes(type: ToxicType, input: unknown, base?: ToxicAttributes): ToxicAttributes {
  const keys = TOXIC_ATTRIBUTES[type];
  const values: Record<string, number> = {};
  for (const key of keys) values[key] = base ? ((base as unknown as Record<string, number>)[key] ?? 0) : 0;
  if (input !== undefined && input !== null) {
    if (typeof input !== 'object' || Array.isArray(input))
      throw new ToxicAttributeError('attributes: expected an object');
    for (const [key, value] of Object.entries(input)) {
      if (!keys.includes(key))
        throw new ToxicAttributeError(`attributes.${key}: unknown for ${type} (expected ${keys.join(', ')})`);
      const max = MAX[key]!;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
        throw new ToxicAttributeError(`attributes.${key}: expected a whole number from 0 to ${max}`);
      values[key] = value;
    }
  }
  // Toxiproxy's slicer recurses for ever on a size of 0
  if (type === 'slicer' && values.average_size! < 1)
    throw new ToxicAttributeError('attributes.average_size: a slicer needs a size of at least 1 byte');
  return { type, ...values } as ToxicAttributes;
}

/** the attributes as Toxiproxy prints them (no `type` key) */
export function attributesJson(attributes: ToxicAttributes): Record<string, number> {
  const { type, ...rest } = attributes;
  const out: Record<string, number> = {};
  for (const key of TOXIC_ATTRIBUTES[type]) out[key] = (rest as Record<string, number>)[key]!;
  return out;
}
