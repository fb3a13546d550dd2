/**
 * API-key check: both sides are hashed first, so timingSafeEqual always
 * compares 32 bytes (no length leak, no length-mismatch throw).
 */
import * as crypto from 'node:crypto';

const { createHash, timingSafeEqual } = crypto;
// one-shot hashing (node ≥ 20.12) avoids a Hash object per request
const oneShot = (crypto as unknown as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;
const sha256 = (text: string): Buffer => (oneShot ? oneShot('sha256', text, 'buffer') : createHash('sha256').update(text, 'utf8').digest());

export type KeyCheck = (given: string | string[] | undefined) => boolean;

export function apiKeyCheck(expected: string): KeyCheck {
  const want = sha256(expected);
  return (given) => {
    if (typeof given !== 'string' || given === '') return false;
    const got = sha256(given);
    return timingSafeEqual(got, want);
  };
}
