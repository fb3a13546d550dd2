import { describe, expect, it } from 'vitest';
import { Router } from '../../../src/server/router.js';
import type { StreamEvent, StreamInput } from '../../../src/server/groups/stream.js';
import { frameJson, openSse } from '../../helpers/sse.js';
import { raw, serve } from './helpers.js';

describe('POST /api/v1/stream', () => {
  it('passes query, session_id and options to the processor and relays every event, errors included, then done', async () => {
    const seen: StreamInput[] = [];
    const router = new Router({ log: () => {} }).registerStreamEndpoint({
      async *processStream(input): AsyncIterable<StreamEvent> {
        seen.push(input);
        yield { event: 'thinking', data: { step: 1 } };
        yield { event: 'tool', data: null, error: 'tool timed out' };
        yield { event: 'answer', data: { text: `echo ${input.query}` } };
      },
    });
    const s = await serve(router);
    const conn = await openSse({
      url: `${s.url}/api/v1/stream`,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'hi', session_id: 's1', options: { model: 'local' } }),
    });
    expect(conn.status).toBe(200);
    await conn.ended;
    expect(seen).toEqual([{ query: 'hi', session_id: 's1', options: { model: 'local' } }]);
    const frames = conn.frames.filter((f) => f.event);
    expect(frames.map((f) => f.event)).toEqual(['thinking', 'tool', 'answer', 'done']);
    expect(frames.map((f) => Number(f.id))).toEqual([1, 2, 3, 4]);
    expect(frameJson(frames[1]!)).toEqual({ event: 'tool', data: null, error: 'tool timed out' });
    expect(frameJson(frames[2]!)).toEqual({ event: 'answer', data: { text: 'echo hi' } });
    expect(frameJson(frames[3]!)).toEqual({ event: 'done', data: { events: 3 } });
  });

  it('delivers a processor failure as an error frame followed by done', async () => {
    const router = new Router({ log: () => {} }).registerStreamEndpoint({
      async *processStream(): AsyncIterable<StreamEvent> {
        yield { event: 'start' };
        throw new Error('model unavailable');
      },
    });
    const s = await serve(router);
    const conn = await openSse({ url: `${s.url}/api/v1/stream`, method: 'POST', body: '{"query":"x"}' });
    await conn.ended;
    const frames = conn.frames.filter((f) => f.event);
    expect(frames.map((f) => f.event)).toEqual(['start', 'error', 'done']);
    expect(frameJson(frames[1]!)).toMatchObject({ error: 'model unavailable' });
  });

  it('rejects a missing query, a query over 8 KiB and a non-object body with 400 before streaming', async () => {
    const router = new Router({ log: () => {} }).registerStreamEndpoint({ async *processStream() {} });
    const s = await serve(router);
    expect((await raw(s.url, 'POST', '/api/v1/stream', { body: '{}' })).status).toBe(400);
    const long = await raw(s.url, 'POST', '/api/v1/stream', {
      body: JSON.stringify({ query: 'q'.repeat(8 * 1024 + 1) }),
    });
    expect(long.status).toBe(400);
    expect(long.json().code).toBe('query_too_long');
    expect(
      (await raw(s.url, 'POST', '/api/v1/stream', { body: JSON.stringify({ query: 'q'.repeat(8 * 1024) }) })).status,
    ).toBe(200);
    expect((await raw(s.url, 'POST', '/api/v1/stream', { body: '[1]' })).status).toBe(400);
    expect(
      (await raw(s.url, 'POST', '/api/v1/stream', { body: JSON.stringify({ query: 'x', options: 3 }) })).status,
    ).toBe(400);
    expect((await raw(s.url, 'GET', '/api/v1/stream')).status).toBe(405);
  });

  it('cancels the processor when the client goes away mid-stream', async () => {
    let aborted = false;
    let finalized = false;
    let produced = 0;
    const router = new Router({ log: () => {} }).registerStreamEndpoint({
      async *processStream(_input, signal): AsyncIterable<StreamEvent> {
        signal.addEventListener('abort', () => (aborted = true));
        try {
          for (;;) {
            yield { event: 'tick', data: { n: ++produced } };
            await new Promise((r) => setTimeout(r, 5));
            if (signal.aborted) return;
          }
        } finally {
          finalized = true;
        }
      },
    });
    const s = await serve(router);
    const conn = await openSse({ url: `${s.url}/api/v1/stream`, method: 'POST', body: '{"query":"forever"}' });
    await conn.waitFor((f) => f.event === 'tick' && frameJson<{ data: { n: number } }>(f).data.n >= 3);
    conn.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(aborted).toBe(true);
    expect(finalized).toBe(true);
    const at = produced;
    await new Promise((r) => setTimeout(r, 50));
    expect(produced).toBe(at);
  });
});
