/**
 * The open event streams of one server, so a shutdown can send each a final
 * event and end it. Streams leave the registry on their own when they close.
 */
import type { SseFrame, SseStream } from './sse.js';

export class StreamRegistry {
  private readonly streams = new Set<SseStream>();

  get size(): number {
    return this.streams.size;
  }

  add(stream: SseStream): void {
    this.streams.add(stream);
    stream.onClose(() => this.streams.delete(stream));
  }

  /** ends every open stream with `final` as its last frame */
  closeAll(final: SseFrame): void {
    for (const stream of [...this.streams]) stream.close(final);
  }
}
