import { describe, expect, it } from 'vitest';
import { createModelSniffer } from '../../../../src/proxies/llm/model-sniffer.js';

/** the body fed in pieces of `size` bytes, as it comes off a socket */
function sniff(text: string, size = 3, maxBytes?: number): string | undefined {
  const sniffer = createModelSniffer(maxBytes);
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) sniffer.push(bytes.subarray(i, i + size));
  return sniffer.model;
}

describe('the model a request asks for, seen in passing', () => {
  it('finds the top-level model wherever it is, across chunk boundaries', () => {
    expect(sniff('{"model":"gpt-4o-mini","messages":[]}')).toBe('gpt-4o-mini');
    expect(sniff(JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(5000) }], model: 'gpt-5' }), 7)).toBe(
      'gpt-5',
    );
    expect(sniff('{ "input" : "a" ,\n "model" : "claude-x" }', 1)).toBe('claude-x');
  });

  it('ignores a model nested in messages or tools, a "model" value, and escaped quotes', () => {
    const body = {
      messages: [{ role: 'user', content: 'say "model":"fake"', model: 'nested' }],
      metadata: { model: 'nested-too' },
      note: 'model',
      model: 'real',
    };
    expect(sniff(JSON.stringify(body), 5)).toBe('real');
    expect(sniff('{"messages":[],"note":"model"}')).toBeUndefined();
  });

  it('gives up past its byte bound and on bodies that are not JSON', () => {
    expect(sniff(JSON.stringify({ input: 'x'.repeat(2000), model: 'late' }), 100, 1000)).toBeUndefined();
    expect(sniff('model=gpt')).toBeUndefined();
  });
});

describe('the sniffer on strings it cannot take as written', () => {
  it('decodes escapes in the model and in keys as JSON.parse does', () => {
    expect(sniff('{"model":"gpt\\u002d4\\"x\\"","messages":[]}')).toBe('gpt-4"x"');
    expect(sniff('{"mod\\u0065l":"escaped-key"}', 2)).toBe('escaped-key');
    expect(sniff('{"messages":[],"model":"a\\\\b"}', 1)).toBe('a\\b');
  });

  it('says it is unsure when it gave up or the model was too long to keep', () => {
    const long = createModelSniffer();
    long.push(Buffer.from(JSON.stringify({ model: 'm'.repeat(300) })));
    expect(long).toMatchObject({ model: undefined, isDone: true, isUnsure: true });
    const bounded = createModelSniffer(100);
    bounded.push(Buffer.from(JSON.stringify({ input: 'x'.repeat(200), model: 'late' })));
    expect(bounded).toMatchObject({ model: undefined, isDone: true, isUnsure: true });
    const sure = createModelSniffer();
    sure.push(Buffer.from('{"messages":[]}'));
    expect(sure).toMatchObject({ model: undefined, isDone: false, isUnsure: false });
  });
});
