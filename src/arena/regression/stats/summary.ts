/** Per-sample summary statistics, from simple-statistics. */
import { mean, sampleStandardDeviation } from 'simple-statistics';

export interface SampleSummary {
  n: number;
  mean: number;
  /** sample standard deviation (n − 1); 0 for a single value */
  sd: number;
}

export function summarize(values: readonly number[]): SampleSummary {
  checkSample(values, 'sample', 1);
  const n = values.length;
  return { n, mean: mean(values as number[]), sd: n > 1 ? sampleStandardDeviation(values as number[]) : 0 };
}

/** Statistics get finite numbers only; a NaN or a too-short sample is a caller bug, named here. */
export function checkSample(values: readonly number[], name: string, minLength: number): void {
  if (!Array.isArray(values)) throw new TypeError(`${name} must be an array of numbers`);
  if (values.length < minLength) {
    throw new RangeError(
      `${name} needs at least ${minLength} value${minLength === 1 ? '' : 's'}, got ${values.length}`,
    );
  }
  values.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new TypeError(`${name}[${i}] is not a finite number: ${String(v)}`);
  });
}
