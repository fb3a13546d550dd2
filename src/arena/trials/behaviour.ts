/**
 * What one trial's calls say about the agent's behaviour and cost (DESIGN §14), and the per-task
 * summary: medians of calls per trial, runaway, duplicate side effects, false success, tokens and money.
 */
import type { CallRecord } from '../../protocol/calls.js';
import { matchesAnyGlob } from '../../shared/glob.js';
import type { ModelPrice } from './tasks.js';

/** runaway: a median over this many times the clean one … */
export const RUNAWAY_FACTOR = 3;
/** … and over this many calls */
export const RUNAWAY_MIN_CALLS = 10;

export interface TrialBehaviour {
  llm_calls: number;
  tool_calls: number;
  /** calls of a side_effects tool beyond the first with the same arguments */
  duplicate_side_effects: number;
  false_success: boolean;
  tokens: number;
  /** undefined when a call's model has no price (or no prices were given) */
  usd: number | undefined;
}

export interface TrialFacts {
  passed: boolean;
  /** tool globs the task needs */
  needs?: readonly string[] | undefined;
}

export function trialBehaviour(
  calls: readonly CallRecord[],
  facts: TrialFacts,
  sideEffects: readonly string[],
  prices: Readonly<Record<string, ModelPrice>>,
): TrialBehaviour {
  const llm = calls.filter((c) => c.kind === 'llm');
  const tools = calls.filter((c) => c.kind === 'tool');
  const seen = new Set<string>();
  let duplicates = 0;
  for (const call of tools) {
    if (call.tool === undefined || !matchesAnyGlob(call.tool, sideEffects)) continue;
    const key = `${call.tool}\u0000${call.args_hash ?? ''}`;
    if (seen.has(key)) duplicates++;
    else seen.add(key);
  }
  const needs = facts.needs;
  const neededSucceeded =
    needs === undefined || tools.some((c) => c.ok && c.tool !== undefined && matchesAnyGlob(c.tool, needs));
  let tokens = 0;
  let usd: number | undefined = Object.keys(prices).length > 0 ? 0 : undefined;
  for (const call of llm) {
    if (!call.tokens) continue;
    tokens += call.tokens.input + call.tokens.output;
    const price = call.model !== undefined ? prices[call.model] : undefined;
    if (usd !== undefined && price)
      usd += (call.tokens.input * price.input_per_mtok + call.tokens.output * price.output_per_mtok) / 1e6;
    else usd = undefined;
  }
  return {
    llm_calls: llm.length,
    tool_calls: tools.length,
    duplicate_side_effects: duplicates,
    false_success: facts.passed && !neededSucceeded,
    tokens,
    usd,
  };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** over 3× the clean median and over 10 calls */
export function isRunaway(faulted: number, clean: number): boolean {
  return faulted > RUNAWAY_FACTOR * clean && faulted > RUNAWAY_MIN_CALLS;
}

export function sum(values: ReadonlyArray<number | undefined>): number | null {
  let total = 0;
  for (const v of values) {
    if (v === undefined) return null;
    total += v;
  }
  return total;
}
