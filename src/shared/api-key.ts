/**
 * API-key check: both sides are hashed first, so timingSafeEqual always
 * compares 32 bytes (no length leak, no length-mismatch throw).
 */
import * as crypto from 'node:crypto';

const { createHash, timingSafeEqual } = crypto;
// one-shot hashing (node ≥ 20.12) avoids a Hash object per request
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string, encoding: 'latin1') => string }).hash;
/**
 * The raw 32-byte digest. One-shot hashing asks for it as a latin1 string
 * (one char per byte) and copies it into a pooled Buffer: on node 20 a Buffer
 * returned from C++ costs about twice the hash itself.
 */
const sha256 = (text: string): Buffer =>
  oneShot ? Buffer.from(oneShot('sha256', text, 'latin1'), 'latin1') : createHash('sha256').update(text, 'utf8').digest();

export type KeyCheck = (given: string | string[] | undefined) => boolean;

export function apiKeyCheck(expected: string): KeyCheck {
  const want = sha256(expected);
  return (given) => {
    if (typeof given !== 'string' || given === '') return false;
    const got = sha256(given);
    return timingSafeEqual(got, want);
  };
}
