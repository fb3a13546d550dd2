/**
 * What a t-test that found nothing could have found: its power against a given
 * true difference, and the smallest difference it would detect with 80% power.
 * Power uses the shifted central t (the noncentral t's usual approximation),
 * good to a few percent once df ≥ 5, which is what a "could we have seen it?"
 * statement needs.
 */
import { studentTQuantile, studentTSf } from './distributions.js';

export function twoSidedPower(trueDifference: number, se: number, df: number, alpha: number): number {
  if (!(se > 0)) return trueDifference === 0 ? alpha : 1;
  const critical = studentTQuantile(1 - alpha / 2, df);
  const shift = trueDifference / se;
  return studentTSf(critical - shift, df) + studentTSf(critical + shift, df);
}

/** the true difference the test would detect with probability `power` */
export function minimumDetectableDifference(se: number, df: number, alpha: number, power = 0.8): number {
  if (!(se > 0)) return 0;
  return (studentTQuantile(1 - alpha / 2, df) + studentTQuantile(power, df)) * se;
}
