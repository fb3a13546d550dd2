/**
 * `stream_error` and `stream_stall` (DESIGN §10.2): the upstream's streamed
 * answer passes through event by event until the cut point (`after_events`
 * whole events), then
 *  - stream_error, OpenAI: the connection breaks off (no terminating chunk),
 *    as when OpenAI's edge drops a stream; the SDK's read fails mid-stream.
 *  - stream_error, Anthropic: `event: error` with `overloaded_error`, then the
 *    stream ends, as Anthropic reports an overload after the 200.
 *  - stream_stall: nothing more is sent, the connection stays open. When the
 *    fault ends the stream goes on from where it stopped (no byte lost); when
 *    the client gives up, the upstream call is dropped.
 * Before the cut, chunks are forwarded as they arrive, with backpressure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { ActiveLlmFault } from './active-faults.js';
import { SseBoundary } from './sse-boundary.js';
import { anthropicStreamErrorEvent, type LlmApi } from './wire-errors.js';

export interface StreamFaultHooks {
  /** the fault acted on this stream */
  onCut(): void;
  /** the stream ended before the cut point: the fault did not act */
  onNotReached(): void;
  /** a stall began (+1) or ended (-1) */
  onStall(delta: 1 | -1): void;
  /** the client left while stalled */
  onGaveUp(): void;
}

const ignore = () => undefined;

export function relayWithStreamFault(
  upRes: IncomingMessage,
  res: ServerResponse,
  api: LlmApi,
  fault: ActiveLlmFault,
  hooks: StreamFaultHooks,
): void {
  const boundary = new SseBoundary(fault.spec.afterEvents);
  // the client sees the 200 and the headers at once, whatever comes after (a stream taken over in flight has them already)
  if (!res.headersSent) res.flushHeaders();

  const onData = (chunk: Buffer) => {
    const at = boundary.feed(chunk);
    if (at < 0) {
      if (!res.write(chunk)) {
        upRes.pause();
        res.once('drain', () => upRes.resume());
      }
      return;
    }
    upRes.off('data', onData);
    upRes.off('end', onEnd);
    cut(chunk.subarray(0, at), chunk.subarray(at));
  };
  const onEnd = () => {
    hooks.onNotReached();
    res.end();
  };
  upRes.on('data', onData);
  upRes.on('end', onEnd);
  upRes.on('error', () => res.destroy());
  res.once('close', () => upRes.destroy());
  // a stream taken over in flight was just unpiped, which pauses it: a 'data' listener alone would not restart it
  upRes.resume();

  const cut = (head: Buffer, rest: Buffer) => {
    if (!fault.isActive) {
      // the fault ended while this stream ran: it goes on untouched
      hooks.onNotReached();
      res.write(head);
      if (rest.length > 0) res.write(rest);
      pipeline(upRes, res, ignore);
      return;
    }
    hooks.onCut();
    if (fault.spec.errorType === 'stream_error') {
      upRes.destroy();
      if (api === 'anthropic') {
        res.end(Buffer.concat([head, Buffer.from(anthropicStreamErrorEvent())]));
      } else {
        // the bytes before the cut reach the client, then the connection drops mid-body
        res.write(head, () => res.destroy());
      }
      return;
    }
    stall(head, rest);
  };

  const stall = (head: Buffer, rest: Buffer) => {
    upRes.pause();
    res.write(head);
    hooks.onStall(1);
    const release = () => {
      hooks.onStall(-1);
      if (res.destroyed) return;
      if (rest.length > 0) res.write(rest);
      pipeline(upRes, res, ignore);
    };
    fault.waiting.add(release);
    res.once('close', () => {
      if (!fault.waiting.delete(release)) return;
      hooks.onStall(-1);
      hooks.onGaveUp();
    });
  };
}
