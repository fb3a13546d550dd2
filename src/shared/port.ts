import { UsageError } from './errors.js';

/** A port to listen on, as a user writes it (a flag, an env variable, a body): 0 (any free port) to 65535. */
export function parsePort(value: unknown, what = '--port'): number {
  const text = String(value).trim();
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port > 65535)
    throw new UsageError(`${what} must be an integer from 0 to 65535 (0 = a free port), got "${String(value)}"`, {
      code: 'invalid_port',
    });
  return port;
}
