/** Query-string validators (bodies go through ../body.ts): each failure is a 400 naming the parameter. */
import { UsageError } from '../../shared/errors.js';

export type Awaitable<T> = T | Promise<T>;

/** an integer query parameter such as `?limit=20` */
export function queryInt(query: URLSearchParams, key: string, min: number, max: number): number | undefined {
  const raw = query.get(key);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`query parameter ${key} must be an integer from ${min} to ${max}, got "${raw}"`, {
      code: 'invalid_input',
    });
  }
  return value;
}
