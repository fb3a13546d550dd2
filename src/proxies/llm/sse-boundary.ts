/**
 * Finds where the Nth server-sent event ends in a byte stream that arrives
 * in arbitrary chunks, so a stream fault cuts between events (the client has
 * whole events, then the break) rather than in the middle of a JSON line.
 * An event ends at a blank line; lines end in LF, CRLF or CR (the SSE spec).
 */
const LF = 0x0a;
const CR = 0x0d;

export class SseBoundary {
  private seen = 0;
  private atLineStart = false;
  private lastWasCR = false;
  /** a blank line ended in CR at the end of the last chunk; an LF opening the next chunk belongs to it */
  private cutAfterLF = false;

  constructor(private readonly events: number) {}

  /**
   * Feeds the next chunk. Returns the offset in this chunk just after the
   * Nth event's end, or -1 when it is not in this chunk. Once found, the
   * caller stops feeding.
   */
  feed(chunk: Uint8Array): number {
    if (this.events === 0) return 0;
    if (this.cutAfterLF) {
      this.cutAfterLF = false;
      return chunk.length > 0 && chunk[0] === LF ? 1 : 0;
    }
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === LF) {
        if (this.lastWasCR) {
          this.lastWasCR = false;
          continue;
        }
        if (this.atLineStart && ++this.seen === this.events) return i + 1;
        this.atLineStart = true;
      } else if (b === CR) {
        if (this.atLineStart && ++this.seen === this.events) {
          if (i + 1 < chunk.length) return chunk[i + 1] === LF ? i + 2 : i + 1;
          this.cutAfterLF = true;
          return -1;
        }
        this.atLineStart = true;
        this.lastWasCR = true;
      } else {
        this.atLineStart = false;
        this.lastWasCR = false;
      }
    }
    return -1;
  }
}
