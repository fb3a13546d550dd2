/**
 * The answer side of the quiet faults (DESIGN §13.1): an upstream answer
 * read whole and rewritten (content faults), or relayed event by event with
 * a delay (slow_stream). Each reports whether it could act, so a fault drawn
 * for an answer it cannot change is counted "not applicable", never "injected".
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EditContext, ContentFault } from './content-edit.js';
import { rewriteAnswer } from './content-faults.js';
import { forwardHeaders } from './upstream.js';
import type { LlmApi } from './wire-errors.js';

/** what the request said about its tools: Anthropic tool name → the input fields it lists as required */
export function requiredFieldsOf(body: Buffer[] | undefined): (tool: string) => readonly string[] {
  const fields = new Map<string, string[]>();
  if (body) {
    try {
      const json = JSON.parse(Buffer.concat(body).toString('utf8')) as { tools?: unknown };
      for (const t of Array.isArray(json.tools) ? json.tools : []) {
        const tool = t as { name?: unknown; input_schema?: { required?: unknown } };
        const required = tool.input_schema?.required;
        if (typeof tool.name === 'string' && Array.isArray(required))
          fields.set(
            tool.name,
            required.filter((r): r is string => typeof r === 'string'),
          );
      }
    } catch {
      // no JSON request: no tools known
    }
  }
  return (tool) => fields.get(tool) ?? [];
}

/**
 * Reads the 200 answer whole (up to `maxBytes`), rewrites it and sends it with a
 * fresh content-length. `onDone(true)` when it changed the answer; an answer it cannot
 * read or change goes out exactly as it came, with `onDone(false)`.
 */
export function sendRewritten(
  upRes: IncomingMessage,
  res: ServerResponse,
  fault: ContentFault,
  opts: { api: LlmApi; isStream: boolean; ctx: EditContext; maxBytes: number; onDone(isChanged: boolean): void },
): void {
  const headers = forwardHeaders(upRes.rawHeaders);
  const chunks: Buffer[] = [];
  let size = 0;
  const passOriginal = () => {
    res.writeHead(upRes.statusCode ?? 200, upRes.statusMessage, headers);
    for (const c of chunks) res.write(c);
  };
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size <= opts.maxBytes) return;
    // too large to rewrite: what was read and the rest go on untouched
    upRes.off('data', onData);
    upRes.off('end', onEnd);
    opts.onDone(false);
    passOriginal();
    upRes.pipe(res);
  };
  const onEnd = () => {
    const out = rewriteAnswer(opts.api, fault, Buffer.concat(chunks).toString('utf8'), opts.isStream, opts.ctx);
    opts.onDone(out !== undefined);
    if (out === undefined) {
      passOriginal();
      res.end();
      return;
    }
    const kept: string[] = [];
    for (let i = 0; i < headers.length; i += 2)
      if (headers[i]!.toLowerCase() !== 'content-length') kept.push(headers[i]!, headers[i + 1]!);
    kept.push('content-length', String(Buffer.byteLength(out)));
    res.writeHead(upRes.statusCode ?? 200, upRes.statusMessage, kept);
    res.end(out);
  };
  upRes.on('data', onData);
  upRes.on('end', onEnd);
  upRes.once('error', () => res.destroy());
  res.once('close', () => upRes.destroy());
}

/** `slow_stream`: every event of a streamed answer goes out `delayMs` after the one before (headers at once) */
export function relaySlowly(upRes: IncomingMessage, res: ServerResponse, delayMs: number): void {
  res.writeHead(upRes.statusCode ?? 200, upRes.statusMessage, forwardHeaders(upRes.rawHeaders));
  res.flushHeaders();
  let pending: Buffer = Buffer.alloc(0);
  const queue: Buffer[] = [];
  let isEnded = false;
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    if (timer || res.destroyed) return;
    if (queue.length === 0) {
      if (isEnded) {
        if (pending.length > 0) res.write(pending);
        res.end();
      }
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      if (res.destroyed) return;
      res.write(queue.shift()!);
      pump();
    }, delayMs);
  };
  upRes.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const at = eventEnd(pending);
      if (at < 0) break;
      queue.push(pending.subarray(0, at));
      pending = pending.subarray(at);
    }
    pump();
  });
  upRes.on('end', () => {
    isEnded = true;
    pump();
  });
  upRes.once('error', () => res.destroy());
  res.once('close', () => {
    if (timer) clearTimeout(timer);
    upRes.destroy();
  });
}

/** offset just after the first blank line (an event's end), -1 when there is none yet */
function eventEnd(buf: Buffer): number {
  const lf = buf.indexOf('\n\n');
  const crlf = buf.indexOf('\r\n\r\n');
  if (lf < 0 && crlf < 0) return -1;
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return crlf + 4;
  return lf + 2;
}
