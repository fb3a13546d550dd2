/**
 * Properties of the quiet faults: a seed reproduces the same mutation byte for byte, probability 0
 * never acts, and a fault acts on no request its match excludes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActiveFaults } from '../../../../src/proxies/llm/active-faults.js';
import { rewriteAnswer } from '../../../../src/proxies/llm/content-faults.js';
import { parseLlmFault } from '../../../../src/proxies/llm/fault-spec.js';
import { createRandom, deriveRandom } from '../../../../src/shared/random.js';
import { anthropicEvents, openaiEvents } from '../../../helpers/llm-upstream.js';

const CONTENT = ['truncate', 'empty', 'refusal', 'wrong_value'] as const;
const tokens = fc.array(fc.stringMatching(/^[ a-z0-9.]{1,6}$/), { minLength: 1, maxLength: 8 });

describe('quiet fault properties', () => {
  it('the same seed rewrites the same answer to the same bytes (OpenAI and Anthropic, streamed and not)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CONTENT),
        fc.constantFrom('openai' as const, 'anthropic' as const),
        fc.boolean(),
        tokens,
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (fault, api, isStream, words, seed, keep) => {
          const body = isStream
            ? (api === 'openai' ? openaiEvents('m', words) : anthropicEvents('m', words)).join('')
            : api === 'openai'
              ? JSON.stringify({
                  choices: [
                    { index: 0, message: { role: 'assistant', content: words.join('') }, finish_reason: 'stop' },
                  ],
                })
              : JSON.stringify({ content: [{ type: 'text', text: words.join('') }], stop_reason: 'end_turn' });
          const once = () =>
            rewriteAnswer(api, fault, body, isStream, { keep, api, random: deriveRandom(seed, `mutate:${fault}:1`) });
          expect(once()).toBe(once());
        },
      ),
    );
  });

  it('probability 0 never acts, and a fault never acts on a request its match excludes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('truncate', 'wrong_value', 'rate_limit', 'slow_stream', 'context_length'),
        fc.array(fc.constantFrom('gpt-a', 'gpt-b', 'claude-c'), { minLength: 1, maxLength: 30 }),
        fc.integer(),
        (type, models, seed) => {
          const zero = new ActiveFaults(createRandom(seed));
          zero.add('z', parseLlmFault('llm_failure', { error_type: type, probability: 0 }));
          const only = new ActiveFaults(createRandom(seed));
          only.add(
            'm',
            parseLlmFault('llm_failure', { error_type: type, match: { model: 'gpt-a' }, probability: 0.5 }),
          );
          for (const model of models) {
            expect(zero.decide('/v1/chat/completions', model).fault).toBeUndefined();
            if (model !== 'gpt-a') expect(only.decide('/v1/chat/completions', model).fault).toBeUndefined();
          }
        },
      ),
    );
  });
});
