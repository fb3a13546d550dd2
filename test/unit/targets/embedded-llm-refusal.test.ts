/**
 * The embedded runtime's LLM is simulated in-process: it applies the loud error types to every call.
 * A quiet fault (DESIGN §13.1) or a proxy-only parameter is refused with a reason before anything is
 * injected, never reported as applied.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { assertSupported } from '../../../src/arena/support.js';
import { createEmbeddedTarget } from '../../../src/targets/embedded/index.js';
import type { Target } from '../../../src/arena/providers.js';
import { RuntimeError, UsageError } from '../../../src/shared/errors.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

describe('embedded target: llm_failure it cannot apply', () => {
  it('refuses a quiet error type at validation, naming the LLM proxy', () => {
    target = createEmbeddedTarget({ workloadRate: 0 });
    const truncate = { type: 'llm_failure' as const, metadata: { error_type: 'malformed_tool_args' } };
    expect(target.refuses?.(truncate)).toContain('quiet faults need the LLM proxy');
    expect(target.refuses?.({ type: 'llm_failure', metadata: { error_type: 'overloaded', first_n: 2 } })).toContain(
      'takes no first_n',
    );
    expect(target.refuses?.({ type: 'llm_failure', metadata: { error_type: 'overloaded', duration: '1s' } })).toBe(
      undefined,
    );
    expect(() => assertSupported(target!, ['llm_failure'], 'scenario q', [truncate])).toThrow(UsageError);
  });

  it('refuses it at injection too (an HTTP action), and nothing stays active', async () => {
    target = createEmbeddedTarget({ workloadRate: 0 });
    await target.start();
    await expect(target.runtime.injectLlmFailure('agent-2', 'malformed_tool_args')).rejects.toThrow(RuntimeError);
    expect(await target.runtime.activeFaults()).toEqual([]);
  });
});
