/** Consistency: each invariant is one request whose answer must meet its expectation. */
import type { InvariantCheck } from '../../arena/providers.js';
import { checkAnswer } from './expect.js';
import { sendRequest } from './request.js';
import type { ProcessTargetSpec } from './spec.js';

type InvariantSpec = NonNullable<ProcessTargetSpec['invariants']>[number];

export async function checkInvariants(specs: readonly InvariantSpec[]): Promise<InvariantCheck[]> {
  return Promise.all(
    specs.map(async (spec): Promise<InvariantCheck> => {
      const gate = spec.gate === false ? { gate: false } : {};
      try {
        const problem = checkAnswer(await sendRequest(spec.request), spec.expect);
        return problem === undefined
          ? { name: spec.name, passed: true, ...gate }
          : { name: spec.name, passed: false, detail: problem, ...gate };
      } catch (err) {
        return { name: spec.name, passed: false, detail: (err as Error).message, ...gate };
      }
    }),
  );
}
