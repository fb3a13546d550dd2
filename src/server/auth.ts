/**
 * API-key check: both sides are hashed first, so timingSafeEqual always
 * compares 32 bytes (no length leak, no length-mismatch throw).
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export type KeyCheck = (given: string | string[] | undefined) => boolean;

export function apiKeyCheck(expected: string): KeyCheck {
  const want = createHash('sha256').update(expected, 'utf8').digest();
  return (given) => {
    if (typeof given !== 'string' || given === '') return false;
    const got = createHash('sha256').update(given, 'utf8').digest();
    return timingSafeEqual(got, want);
  };
}
