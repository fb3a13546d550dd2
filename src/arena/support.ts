/**
 * Faults a target cannot apply are refused before anything is injected
 * (DESIGN §9): one usage error naming each fault, the target and why.
 */
import type { ActionType } from './action.js';
import type { Target } from './providers.js';
import { UsageError } from '../shared/errors.js';

/** `memory_corrupt: target checkout-agents has no memory_corrupt hook`, one line per refused type */
export function unsupportedProblems(target: Target, types: Iterable<ActionType>): string[] {
  const refused = target.unsupportedFaults();
  const problems: string[] = [];
  for (const type of new Set(types)) {
    const why = refused[type];
    if (why !== undefined) problems.push(`${type}: ${why}`);
  }
  return problems;
}

/** `llm_failure: …` for each action whose type the target supports but whose parameters it cannot apply */
export function refusedProblems(
  target: Target,
  actions: Iterable<{ type: ActionType; metadata?: Record<string, unknown> }>,
): string[] {
  if (!target.refuses) return [];
  const problems = new Set<string>();
  for (const action of actions) {
    const why = target.refuses(action);
    if (why !== undefined) problems.add(`${action.type}: ${why}`);
  }
  return [...problems];
}

export function assertSupported(
  target: Target,
  types: Iterable<ActionType>,
  what: string,
  actions: Iterable<{ type: ActionType; metadata?: Record<string, unknown> }> = [],
): void {
  const problems = [...unsupportedProblems(target, types), ...refusedProblems(target, actions)];
  if (problems.length > 0) {
    throw new UsageError(
      `${what} needs faults target ${target.name} (${target.kind}) cannot apply; nothing was injected:\n  ${problems.join('\n  ')}`,
      { code: 'unsupported_fault', details: problems },
    );
  }
}
