/**
 * API-key check: both sides are hashed first, so timingSafeEqual always
 * compares 32 bytes (no length leak, no length-mismatch throw).
 */
import * as crypto from 'node:crypto';
import { UsageError } from './errors.js';

const { createHash, timingSafeEqual } = crypto;
// one-shot hashing (node ≥ 20.12) avoids a Hash object per request
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string, encoding: 'latin1') => string }).hash;
/**
 * The raw 32-byte digest. One-shot hashing asks for it as a latin1 string
 * (one char per byte) and copies it into a pooled Buffer: on node 20 a Buffer
 * returned from C++ costs about twice the hash itself.
 */
const sha256 = (text: string): Buffer =>
  oneShot
    ? Buffer.from(oneShot('sha256', text, 'latin1'), 'latin1')
    : createHash('sha256').update(text, 'utf8').digest();

export type KeyCheck = (given: string | string[] | undefined) => boolean;

/**
 * A key a client can actually send: HTTP trims header values, so a blank key
 * or one with spaces around it could never match (and a blank one would pass
 * for "a key is set" when deciding whether a public bind is safe).
 */
export function assertUsableApiKey(key: string, where = 'the API key'): void {
  if (key.trim() === '')
    throw new UsageError(`${where} is blank: give a real key, or none to turn auth off (loopback only)`, {
      code: 'invalid_api_key',
    });
  if (key !== key.trim())
    throw new UsageError(
      `${where} has spaces around it; HTTP strips those from the X-API-Key header, so it could never match`,
      { code: 'invalid_api_key' },
    );
  if (/[\r\n\0]/.test(key))
    throw new UsageError(`${where} contains a line break or NUL, which no header can carry`, {
      code: 'invalid_api_key',
    });
}

export function apiKeyCheck(expected: string): KeyCheck {
  assertUsableApiKey(expected);
  const want = sha256(expected);
  return (given) => {
    if (typeof given !== 'string' || given === '') return false;
    const got = sha256(given);
    return timingSafeEqual(got, want);
  };
}
