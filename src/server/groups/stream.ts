/**
 * POST /api/v1/stream: runs a query through the stream processor and relays
 * what it yields as SSE frames carrying `{event, data, error?}`; the last
 * frame is `event: done`. The processor is cancelled when the client leaves.
 */
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { Routes } from '../routes.js';
import { id, int, parseWith, text, z } from '../body.js';

export const MAX_QUERY_BYTES = 8 * 1024;

export interface StreamInput {
  query: string;
  session_id?: string;
  options?: Record<string, unknown>;
}

/** One thing the processor reports; `error` set means this step failed (the stream goes on). */
export interface StreamEvent {
  event: string;
  data?: unknown;
  error?: string;
}

export interface StreamProcessor {
  processStream(input: StreamInput, signal: AbortSignal): AsyncIterable<StreamEvent>;
}

/**
 * Options are checked here, before the event stream opens, with the same
 * rules as the query: a bad option is a 400, not an error frame on a 200.
 */
const StreamOptions = z.strictObject({
  top_k: int(0, 20).optional(),
  history: int(0, 100).optional(),
  model: id().optional(),
  max_tokens: int(1, 100_000).optional(),
  system: z.string().max(20_000).optional(),
  remember: z.boolean().optional(),
});
export const StreamBody = z.strictObject({
  query: text(1_000_000),
  session_id: id().optional(),
  options: StreamOptions.optional(),
});

export function parseStreamInput(value: unknown): StreamInput {
  const body = parseWith(StreamBody, value);
  const query = body.query;
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > MAX_QUERY_BYTES) {
    throw new UsageError(`body.query is ${bytes} bytes; the limit is ${MAX_QUERY_BYTES} bytes (8 KiB)`, {
      code: 'query_too_long',
    });
  }
  const input: StreamInput = { query };
  if (body.session_id !== undefined) input.session_id = body.session_id;
  if (body.options !== undefined)
    input.options = Object.fromEntries(Object.entries(body.options).filter(([, v]) => v !== undefined));
  return input;
}

export function registerStreamRoutes(router: Routes, processor: StreamProcessor): void {
  router.post('/api/v1/stream', async (ctx) => {
    const input = parseStreamInput(await ctx.json());
    const stream = ctx.sse();
    const signal = ctx.signal;
    let id = 0;
    let count = 0;
    try {
      for await (const ev of processor.processStream(input, signal)) {
        if (stream.closed) break;
        const frame: StreamEvent = { event: ev.event, data: ev.data ?? null };
        if (ev.error !== undefined) frame.error = ev.error;
        stream.send({ event: ev.event, id: ++id, data: frame });
        count++;
      }
    } catch (err) {
      if (stream.closed || signal.aborted) return;
      stream.send({ event: 'error', id: ++id, data: { event: 'error', data: null, error: errorMessage(err) } });
    }
    if (stream.closed) return;
    stream.close({ event: 'done', id: ++id, data: { event: 'done', data: { events: count } } });
  });
}
