/**
 * peekModel reads a body only as far as its top-level model, for a fault that matches on nothing
 * else: whatever the key order, escapes, chunking and size, it finds the model JSON.parse finds
 * and loses or repeats no byte of what streams on.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { modelOf, peekModel, type ModelPeek } from '../../../../src/proxies/llm/request-body.js';

/** a request stream fed `body` in pieces of the given sizes, with or without its content-length */
function feed(body: Buffer, sizes: number[], hasLength: boolean): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage & PassThrough;
  (req as { headers: Record<string, string> }).headers = hasLength ? { 'content-length': String(body.length) } : {};
  void (async () => {
    let at = 0;
    for (let i = 0; at < body.length; i++) {
      const size = Math.max(1, sizes[i % sizes.length]!);
      req.write(body.subarray(at, at + size));
      at += size;
      await new Promise((r) => setImmediate(r));
    }
    req.end();
  })();
  return req;
}

/** the peek, then the rest of the stream as the proxy would pipe it on */
async function peekAll(req: IncomingMessage, limit: number): Promise<{ peek: ModelPeek; bytes: Buffer }> {
  const peek = await new Promise<ModelPeek>((resolve) => peekModel(req, limit, resolve));
  if (peek.isComplete) return { peek, bytes: Buffer.concat(peek.chunks) };
  const rest: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => rest.push(c));
  await new Promise((r) => {
    sink.on('end', r);
    req.pipe(sink);
  });
  return { peek, bytes: Buffer.concat([...peek.chunks, ...rest]) };
}

const modelName = fc.oneof(
  fc.constantFrom('gpt-4o-mini', 'claude-sonnet-4', 'gpt-a', 'ünï-模型', 'a"quoted"\\model', 'tab\there'),
  fc.string({ maxLength: 20 }),
);

/** a request body with its model somewhere among other keys, decoys nested in messages, maybe escaped */
const requestBody = fc
  .record({
    model: fc.option(modelName, { nil: undefined }),
    position: fc.nat(3),
    content: fc.string({ maxLength: 3000 }),
    decoy: fc.boolean(),
    asciiOnly: fc.boolean(),
    repeat: fc.nat(40),
  })
  .map(({ model, position, content, decoy, asciiOnly, repeat }) => {
    const entries: [string, unknown][] = [
      ['messages', [{ role: 'user', content: content.repeat(1 + repeat), ...(decoy ? { model: 'gpt-a' } : {}) }]],
      ['metadata', decoy ? { model: 'gpt-a', note: '"model":"gpt-a"' } : {}],
      ['stream', false],
    ];
    if (model !== undefined) entries.splice(position, 0, ['model', model]);
    let text = JSON.stringify(Object.fromEntries(entries));
    // some SDKs escape every non-ASCII character: the same model, written differently
    if (asciiOnly)
      text = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return Buffer.from(text);
  });

describe('peekModel', () => {
  it('finds the model JSON.parse finds, and every byte streams on once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestBody,
        fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (body, sizes, hasLength) => {
          const { peek, bytes } = await peekAll(feed(body, sizes, hasLength), 8 * 1024 * 1024);
          expect(peek.model).toBe(modelOf([body]));
          expect(bytes.equals(body)).toBe(true);
        },
      ),
      { seed: 32, numRuns: 150 },
    );
  });

  it('reads no further than the chunk that carries the model', async () => {
    const body = Buffer.from(JSON.stringify({ model: 'gpt-a', messages: [{ content: 'x'.repeat(100_000) }] }));
    const { peek, bytes } = await peekAll(feed(body, [64], true), 8 * 1024 * 1024);
    expect(peek).toMatchObject({ model: 'gpt-a', isComplete: false });
    expect(peek.chunks.length).toBe(1);
    expect(bytes.equals(body)).toBe(true);
  });

  it('a model past the limit matches nothing, as with a whole read; a long model is parsed whole', async () => {
    const late = Buffer.from(JSON.stringify({ messages: [{ content: 'x'.repeat(5000) }], model: 'gpt-a' }));
    const { peek, bytes } = await peekAll(feed(late, [700], true), 1000);
    expect(peek).toMatchObject({ model: undefined, isComplete: false });
    expect(bytes.equals(late)).toBe(true);
    const long = `m${'x'.repeat(400)}`;
    const body = Buffer.from(JSON.stringify({ model: long, messages: [] }));
    expect((await peekAll(feed(body, [50], false), 1000)).peek.model).toBe(long);
  });
});
