/**
 * The request bodies of Toxiproxy's API, read whole before anything acts:
 * a malformed body is Toxiproxy's "bad request body: …" (400) naming the
 * field. Unlike Go's decoder, an unknown key is refused rather than ignored
 * (DESIGN §7), except `toxics` on a proxy, which Toxiproxy's own Go client sends.
 */
import { badBody, invalidStream, invalidToxicType, missingField, toxicExists } from './errors.js';
import {
  ToxicAttributeError,
  isToxicType,
  parseToxicAttributes,
  type ToxicAttributes,
  type ToxicSpec,
  type ToxicStream,
} from '../tcp/toxic-spec.js';

export interface ProxyInput {
  name?: string;
  listen?: string;
  upstream?: string;
  enabled?: boolean;
}

const PROXY_KEYS = ['name', 'listen', 'upstream', 'enabled', 'toxics'];
const TOXIC_KEYS = ['name', 'type', 'stream', 'toxicity', 'attributes'];

/** Go's decoder on an empty body says EOF; a client replaying it sees the same words */
export function parseBodyText(text: string): unknown {
  if (text.trim() === '') throw badBody('EOF');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badBody((err as Error).message);
  }
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badBody(`${where}expected a JSON object`);
  return value as Record<string, unknown>;
}

function onlyKeys(body: Record<string, unknown>, keys: string[], where: string): void {
  for (const key of Object.keys(body))
    if (!keys.includes(key)) throw badBody(`${where}unknown field "${key}" (expected ${keys.join(', ')})`);
}

function optional<T>(body: Record<string, unknown>, key: string, kind: 'string' | 'boolean' | 'number', where: string) {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== kind || (kind === 'number' && !Number.isFinite(value)))
    throw badBody(`${where}${key}: expected a ${kind}`);
  return value as T;
}

export function parseProxyInput(value: unknown, where = ''): ProxyInput {
  const body = object(value, where);
  onlyKeys(body, PROXY_KEYS, where);
  if (body.toxics !== undefined && !Array.isArray(body.toxics) && body.toxics !== null)
    throw badBody(`${where}toxics: expected an array (it is ignored: add toxics through /toxics)`);
  const input: ProxyInput = {};
  const name = optional<string>(body, 'name', 'string', where);
  const listen = optional<string>(body, 'listen', 'string', where);
  const upstream = optional<string>(body, 'upstream', 'string', where);
  const enabled = optional<boolean>(body, 'enabled', 'boolean', where);
  if (name !== undefined) input.name = name;
  if (listen !== undefined) input.listen = listen;
  if (upstream !== undefined) input.upstream = upstream;
  if (enabled !== undefined) input.enabled = enabled;
  return input;
}

/** POST /proxies: name and upstream are required (api.go ProxyCreate) */
export function requireNameAndUpstream(input: ProxyInput, suffix = ''): { name: string; upstream: string } {
  if (!input.name) throw missingField(`name${suffix}`);
  if (!input.upstream) throw missingField(`upstream${suffix}`);
  return { name: input.name, upstream: input.upstream };
}

/** POST /populate: every entry is checked before any proxy is touched (proxy_collection.go PopulateJson) */
export function parsePopulate(value: unknown): Array<ProxyInput & { name: string; upstream: string }> {
  if (!Array.isArray(value)) throw badBody('expected a JSON array of proxies');
  const inputs = value.map((entry, i) => parseProxyInput(entry, `proxy ${i + 1}: `));
  return inputs.map((input, i) => ({ ...input, ...requireNameAndUpstream(input, ` at proxy ${i + 1}`) }));
}

function parseStream(value: unknown): ToxicStream {
  if (value === undefined) return 'downstream';
  if (typeof value !== 'string') throw badBody('stream: expected a string');
  const stream = value.toLowerCase();
  if (stream !== 'upstream' && stream !== 'downstream') throw invalidStream();
  return stream;
}

function parseToxicity(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw badBody('toxicity: expected a number from 0 to 1');
  return value;
}

function attributes(type: ToxicSpec['attributes']['type'], value: unknown, base?: ToxicAttributes) {
  try {
    return parseToxicAttributes(type, value, base);
  } catch (err) {
    if (err instanceof ToxicAttributeError) throw badBody(err.message);
    throw err;
  }
}

/**
 * POST /proxies/{proxy}/toxics, in toxic_collection.go AddToxicJson's order: body, stream, default name
 * `<type>_<stream>`, type, a name already taken (409), attributes last.
 */
export function parseToxicCreate(value: unknown, isTaken: (name: string) => boolean): ToxicSpec {
  const body = object(value, '');
  onlyKeys(body, TOXIC_KEYS, '');
  const type = optional<string>(body, 'type', 'string', '') ?? '';
  const name = optional<string>(body, 'name', 'string', '');
  const stream = parseStream(body.stream);
  const toxicName = name || `${type}_${stream}`;
  if (!isToxicType(type)) throw invalidToxicType();
  if (isTaken(toxicName)) throw toxicExists();
  return {
    name: toxicName,
    stream,
    toxicity: parseToxicity(body.toxicity, 1),
    attributes: attributes(type, body.attributes),
  };
}

/**
 * POST /proxies/{proxy}/toxics/{toxic}: attributes merge over the current ones and toxicity keeps its
 * value when absent, as UpdateToxicJson decodes over the existing toxic. Name, type and stream may be
 * sent (clients echo the whole toxic) but cannot change.
 */
export function parseToxicUpdate(value: unknown, current: ToxicSpec): ToxicSpec {
  const body = object(value, '');
  onlyKeys(body, TOXIC_KEYS, '');
  const same: Array<[string, unknown]> = [
    ['name', current.name],
    ['type', current.attributes.type],
    ['stream', current.stream],
  ];
  for (const [key, now] of same) {
    const given = body[key];
    if (given !== undefined && (typeof given !== 'string' || given.toLowerCase() !== now))
      throw badBody(`${key}: a toxic's ${key} cannot change (delete it and add it again)`);
  }
  return {
    ...current,
    toxicity: parseToxicity(body.toxicity, current.toxicity),
    attributes: attributes(current.attributes.type, body.attributes, current.attributes),
  };
}
