import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseBoundary } from '../../../../src/proxies/llm/sse-boundary.js';

/** feeds the chunks; the bytes before the cut, or undefined when the Nth event never ended */
function cutAt(chunks: string[], events: number): string | undefined {
  const boundary = new SseBoundary(events);
  let before = '';
  for (const chunk of chunks) {
    const at = boundary.feed(Buffer.from(chunk));
    if (at >= 0) return before + chunk.slice(0, at);
    before += chunk;
  }
  return undefined;
}

describe('SSE event boundary', () => {
  it('cuts after the Nth blank line, for LF, CRLF and CR line ends', () => {
    expect(cutAt(['data: a\n\ndata: b\n\n'], 1)).toBe('data: a\n\n');
    expect(cutAt(['event: x\r\ndata: a\r\n\r\ndata: b\r\n\r\n'], 2)).toBe('event: x\r\ndata: a\r\n\r\ndata: b\r\n\r\n');
    expect(cutAt(['data: a\r\rdata: b\r\r'], 1)).toBe('data: a\r\r');
    expect(cutAt(['data: a\n'], 1)).toBeUndefined();
    expect(cutAt(['anything'], 0)).toBe('');
  });

  it('a CRLF blank line split across chunks keeps its LF before the cut', () => {
    expect(cutAt(['data: a\r\n\r', '\ndata: b'], 1)).toBe('data: a\r\n\r\n');
    expect(cutAt(['data: a\r\r', 'data: b'], 1)).toBe('data: a\r\r');
  });

  it('finds the same cut however the stream is chunked', () => {
    const events = ['data: {"a":1}\n\n', 'event: e\ndata: x\n\n', 'data: y\r\n\r\n', 'data: [DONE]\n\n'];
    const text = events.join('');
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 4 }),
        (splits, n) => {
          const points = [...new Set(splits)].sort((a, b) => a - b);
          const chunks: string[] = [];
          let last = 0;
          for (const p of points) {
            chunks.push(text.slice(last, p));
            last = p;
          }
          chunks.push(text.slice(last));
          expect(cutAt(chunks, n)).toBe(events.slice(0, n).join(''));
        },
      ),
      { numRuns: 300, seed: 1 },
    );
  });
});
