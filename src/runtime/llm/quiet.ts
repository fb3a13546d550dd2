/**
 * Quiet LLM faults on the embedded runtime's simulated model (DESIGN §13.1):
 * the primary provider answers, but wrongly: cut short (`finishReason:
 * length`), empty, refused, or with its numbers changed. Only the content
 * faults a model without a wire can have; the wire-level ones need the LLM
 * proxy of a process target.
 */
import { changeNumbers, prefix } from '../../protocol/quiet-values.js';
import { deriveRandom } from '../../shared/random.js';
import type { LlmResponse } from './types.js';

export const EMBEDDED_QUIET_LLM_TYPES = ['truncate', 'empty', 'refusal', 'wrong_value'] as const;
export type EmbeddedQuietLlmType = (typeof EMBEDDED_QUIET_LLM_TYPES)[number];

export interface QuietLlmFault {
  id: string;
  type: EmbeddedQuietLlmType;
  /** truncate: the fraction of the text kept */
  keep: number;
  seed: number;
}

/** OpenAI's own wording of a refusal */
const REFUSAL = "I'm sorry, but I can't assist with that request.";

/** The answer as the fault leaves it; `nth` (which changed answer this is) seeds wrong_value; `changed` gets its numbers. */
export function quietAnswer(fault: QuietLlmFault, answer: LlmResponse, nth: number, changed?: string[]): LlmResponse {
  switch (fault.type) {
    case 'truncate':
      return { ...answer, text: prefix(answer.text, fault.keep), finishReason: 'length' };
    case 'empty':
      return { ...answer, text: '', finishReason: 'stop' };
    case 'refusal':
      return { ...answer, text: REFUSAL, finishReason: 'refusal' };
    case 'wrong_value':
      return { ...answer, text: changeNumbers(answer.text, deriveRandom(fault.seed, `wrong_value:${nth}`), changed) };
  }
}
