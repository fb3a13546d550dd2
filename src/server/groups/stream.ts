/**
 * POST /api/v1/stream: runs a query through the stream processor and relays
 * what it yields as SSE frames carrying `{event, data, error?}`; the last
 * frame is `event: done`. The processor is cancelled when the client leaves.
 */
import { UsageError, errorMessage } from '../../shared/errors.js';
import type { Router } from '../router.js';
import { asObject, optionalObject, optionalString, requiredString } from './input.js';

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

export function parseStreamInput(value: unknown): StreamInput {
  const body = asObject(value);
  const query = requiredString(body, 'query');
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > MAX_QUERY_BYTES) {
    throw new UsageError(`body.query is ${bytes} bytes; the limit is ${MAX_QUERY_BYTES} bytes (8 KiB)`, 'query_too_long');
  }
  const input: StreamInput = { query };
  const sessionId = optionalString(body, 'session_id');
  if (sessionId !== undefined) input.session_id = sessionId;
  const options = optionalObject(body, 'options');
  if (options !== undefined) input.options = options;
  return input;
}

export function registerStreamRoutes(router: Router, processor: StreamProcessor): void {
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
