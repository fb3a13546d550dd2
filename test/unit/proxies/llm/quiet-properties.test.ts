/**
 * Properties of the quiet faults: a seed reproduces the same mutation byte for byte, probability 0
 * never acts, and a fault acts on no request its match excludes: neither in its decision nor on
 * the wire, where a request it does not match reaches the upstream, and its answer the client,
 * byte for byte as without the proxy.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ActiveFaults } from '../../../../src/proxies/llm/active-faults.js';
import { rewriteAnswer } from '../../../../src/proxies/llm/content-faults.js';
import { parseLlmFault } from '../../../../src/proxies/llm/fault-spec.js';
import { startLlmProxy, type LlmProxy } from '../../../../src/proxies/llm/index.js';
import { createRandom, deriveRandom } from '../../../../src/shared/random.js';
import { anthropicEvents, openaiEvents, startStandIn, type StandIn } from '../../../helpers/llm-upstream.js';

let upstream: StandIn | undefined;
let proxy: LlmProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await upstream?.close();
  proxy = upstream = undefined;
});

/** one POST, its body written in pieces of `size` bytes a tick apart, chunked when it has no content-length */
function post(base: string, body: Buffer, size: number, hasLength: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/v1/chat/completions`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(hasLength ? { 'content-length': body.length } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    void (async () => {
      for (let at = 0; at < body.length; at += size) {
        req.write(body.subarray(at, at + size));
        await new Promise((r) => setImmediate(r));
      }
      req.end();
    })();
  });
}

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

  it('on the wire, a request the match excludes reaches the upstream and its answer the client unchanged', async () => {
    upstream = await startStandIn();
    proxy = await startLlmProxy({ listen: 0, upstream: upstream.url, api: 'openai', random: createRandom(32) });
    const base = proxy.url;
    const direct = upstream.url;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('rate_limit', 'context_length', 'wrong_value', 'truncate', 'empty', 'timeout'),
        fc.array(
          fc.record({
            // `gpt\u002da` is gpt-a written with an escape: matched too
            model: fc.constantFrom('gpt-a', 'gpt-b', 'gpt-a-mini', 'gpt\\u002da', 'gpt\\u002db'),
            isFirst: fc.boolean(),
            stream: fc.boolean(),
            padding: fc.nat(20_000),
            size: fc.integer({ min: 1, max: 30_000 }),
            hasLength: fc.boolean(),
          }),
          { minLength: 1, maxLength: 5 },
        ),
        async (type, calls) => {
          const applied = await proxy!.applyFault({
            id: `p-${type}`,
            type: 'llm_failure',
            params: { error_type: type, match: { model: 'gpt-a' } },
            lease_ms: 60_000,
          });
          try {
            for (const c of calls) {
              const messages = JSON.stringify([{ role: 'user', content: `hi ${'x'.repeat(c.padding)}` }]);
              const fields = [`"model":"${c.model}"`, `"messages":${messages}`, `"stream":${c.stream}`];
              if (!c.isFirst) fields.reverse();
              const body = Buffer.from(`{${fields.join(',')}}`);
              const model = JSON.parse(body.toString('utf8')).model as string;
              if (model === 'gpt-a') {
                // the matched side: only what a held request needs, so the property does not wait on it
                if (type === 'rate_limit') expect((await post(base, body, c.size, c.hasLength)).status).toBe(429);
                continue;
              }
              const seen = upstream!.requests.length;
              const proxied = await post(base, body, c.size, c.hasLength);
              expect(upstream!.requests[seen]!.body).toBe(body.toString('utf8'));
              expect(proxied).toEqual(await post(direct, body, c.size, c.hasLength));
            }
          } finally {
            await applied.revert?.();
          }
        },
      ),
      { seed: 32, numRuns: 40 },
    );
  });
});
