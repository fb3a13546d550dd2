/**
 * Quiet LLM faults on the embedded runtime's model (DESIGN §13.1): the
 * primary answers wrongly; the careful client (validate) sends a cut, empty,
 * refused or checked-wrong answer to the fallback, the naive one uses it.
 */
import { describe, expect, it } from 'vitest';
import { createLlmClient, createLocalModel } from '../../../../src/runtime/llm/index.js';
import type { QuietLlmFault } from '../../../../src/runtime/llm/quiet.js';
import { ManualClock } from '../../../../src/shared/clock.js';

const clock = new ManualClock();
const client = (validate: boolean, changes: unknown[] = []) =>
  createLlmClient({
    primary: createLocalModel({ name: 'primary', clock }),
    fallback: createLocalModel({ name: 'fallback', clock }),
    clock,
    validate,
    onChanged: (c) => changes.push(c),
  });
const fault = (type: QuietLlmFault['type']): QuietLlmFault => ({ id: 'f1', type, keep: 0.5, seed: 3 });
const ask = { messages: [{ role: 'user' as const, content: 'compute 12 * 34' }] };
const check = (text: string) => (text === 'The answer is 408.' ? undefined : 'wrong product');

describe('quiet LLM faults on the embedded model', () => {
  it('the naive client uses what the primary says: cut, empty, refused, wrong numbers', async () => {
    const changes: unknown[] = [];
    const llm = client(false, changes);
    llm.injectQuiet(fault('truncate'));
    expect(await llm.complete(ask)).toMatchObject({ provider: 'primary', finishReason: 'length', text: 'The answe' });
    llm.injectQuiet(fault('empty'));
    expect((await llm.complete(ask)).text).toBe('');
    llm.injectQuiet(fault('refusal'));
    expect(await llm.complete(ask)).toMatchObject({ finishReason: 'refusal' });
    llm.injectQuiet(fault('wrong_value'));
    const wrong = await llm.complete({ ...ask, check });
    expect(wrong.provider).toBe('primary');
    expect(wrong.text).not.toBe('The answer is 408.');
    expect(changes.at(-1)).toMatchObject({ fault_id: 'f1', values: [expect.any(String)] });
    llm.injectQuiet(undefined);
    expect((await llm.complete(ask)).text).toBe('The answer is 408.');
  });

  it('the careful client takes each of them to the fallback, which answers right', async () => {
    const llm = client(true);
    for (const type of ['truncate', 'empty', 'refusal', 'wrong_value'] as const) {
      llm.injectQuiet(fault(type));
      expect(await llm.complete({ ...ask, check }), type).toMatchObject({
        provider: 'fallback',
        text: 'The answer is 408.',
      });
    }
    expect(llm.stats()).toMatchObject({ fallbacks: 4, failures: 0 });
  });

  it('the same seed changes the same numbers', async () => {
    const a = client(false);
    const b = client(false);
    a.injectQuiet(fault('wrong_value'));
    b.injectQuiet(fault('wrong_value'));
    expect((await a.complete(ask)).text).toBe((await b.complete(ask)).text);
  });
});
