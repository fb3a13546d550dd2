/**
 * The value changes quiet faults make, whatever carries the value: an LLM
 * proxy's answer (../proxies/llm/content-edit.ts) or the embedded runtime's
 * simulated model. Pure and seeded: the same Random changes the same bytes.
 */
import type { Random } from '../shared/random.js';

/** the first `keep` of the text's characters (code points: a cut never splits a surrogate pair) */
export function prefix(text: string, keep: number): string {
  const chars = Array.from(text);
  return chars.slice(0, Math.floor(chars.length * keep)).join('');
}

const NUMBER = /-?\d+(?:\.\d+)?/g;

/** every number in free text changed plausibly: by 10–50 %, at least by one unit of its last digit */
export function changeNumbers(text: string, random: Random, out?: string[]): string {
  return text.replace(NUMBER, (m) => changeNumberText(m, random, out));
}

export function changeNumberText(m: string, random: Random, out?: string[]): string {
  const decimals = m.includes('.') ? m.length - m.indexOf('.') - 1 : 0;
  const unit = 10 ** -decimals;
  const n = Number(m);
  const step = Math.max(unit, Math.abs(n) * (0.1 + 0.4 * random.next()));
  const sign = random.next() < 0.5 && n - step >= 0 ? -1 : 1;
  const changed = (n + sign * step).toFixed(decimals);
  out?.push(changed);
  return changed;
}
