/** Small validators for request bodies and query strings: each failure is a 400 naming the field. */
import { UsageError } from '../../shared/errors.js';
import { asObject } from '../../shared/json-body.js';

export type Awaitable<T> = T | Promise<T>;

export { asObject };

export function optionalString(body: Record<string, unknown>, key: string, where = 'body'): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new UsageError(`${where}.${key} must be a string, got ${typeof value}`, 'invalid_input');
  return value;
}

export function requiredString(body: Record<string, unknown>, key: string, where = 'body'): string {
  const value = optionalString(body, key, where);
  if (value === undefined || value.trim() === '') throw new UsageError(`${where}.${key} is required (a non-empty string)`, 'invalid_input');
  return value;
}

export function optionalObject(body: Record<string, unknown>, key: string, where = 'body'): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  return asObject(value, `${where}.${key}`);
}

export function optionalInt(body: Record<string, unknown>, key: string, where: string, min: number, max: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`${where}.${key} must be an integer from ${min} to ${max}`, 'invalid_input');
  }
  return value;
}

/** an integer query parameter such as `?limit=20` */
export function queryInt(query: URLSearchParams, key: string, min: number, max: number): number | undefined {
  const raw = query.get(key);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`query parameter ${key} must be an integer from ${min} to ${max}, got "${raw}"`, 'invalid_input');
  }
  return value;
}

/** For routes that take no body: none or `{}` is fine; anything else is a 400 before the route acts. */
export async function noBody(ctx: { optionalJSON(): Promise<unknown> }, route: string): Promise<void> {
  const body = await ctx.optionalJSON();
  if (body === undefined) return;
  const keys = Object.keys(asObject(body));
  if (keys.length > 0) throw new UsageError(`body.${keys[0]}: unknown key (${route} takes no body)`, 'invalid_input');
}
