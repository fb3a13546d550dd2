/**
 * One direction of a proxied connection (client → upstream or back).
 *
 * With no fault on the connection a chunk is written straight through, the
 * way `pipe()` does it: no queue, no timer, pause on backpressure. While a
 * fault acts, chunks go through a FIFO queue whose head waits for its
 * latency, its bandwidth slot, or the end of a blackhole. Whatever arrives
 * while the queue is not empty is queued behind it, also after the fault
 * ends, so bytes are never reordered: only when the queue is empty does the
 * direction go back to writing straight through.
 */
import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../../shared/clock.js';
import type { Admitted } from './toxic-stage.js';

/** What the connection's active faults ask of this direction right now. */
export interface DirectionPolicy {
  /** any fault acts on the connection */
  isFaulted(): boolean;
  /** deliver nothing (blackhole, timeout) */
  isHeld(): boolean;
  /** delay for one chunk, jitter sampled, ms */
  sampleDelay(): number;
  /** Infinity when unlimited */
  bytesPerSecond(): number;
  /** toxics of this direction (toxic-stage.ts): what an arriving chunk becomes; absent = passed as is */
  admit?(chunk: Buffer): Admitted;
  /** toxics of this direction: ms the end of stream waits before it is passed on (slow_close) */
  endDelay?(): number;
}

interface Queued {
  chunk: Buffer;
  arrivedAt: number;
  readyAt: number;
}

/** beyond this many queued bytes the source is paused, so a long fault pushes back on the sender instead of filling memory */
const HIGH_WATER = 1 << 20;
/** bandwidth is paced in slices of about 1/50 s */
const SLICES_PER_SECOND = 50;
/** how far behind schedule pacing may be and still send back to back to catch up */
const CATCH_UP_MS = 100;

export class Direction {
  private queue: Queued[] = [];
  private head = 0;
  private queuedBytes = 0;
  private faulted = false;
  private isWaitingDrain = false;
  private isPaused = false;
  private isEnded = false;
  private isSourceClosed = false;
  private isDone = false;
  private timer: TimerHandle | undefined;
  private nextSendAt = 0;
  /** when the end of stream may be passed on (slow_close) */
  private endAt = 0;
  /** a data limit was reached: once the queue is written, the connection closes */
  private isLimited = false;

  constructor(
    private readonly src: Socket,
    private readonly dst: Socket,
    private readonly clock: Clock,
    private readonly policy: DirectionPolicy,
    private readonly count: (bytes: number) => void,
  ) {
    src.on('data', this.onData);
    src.on('end', this.onEnd);
    dst.on('drain', this.onDrain);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.count(chunk.length);
    if (this.isDone || this.isLimited || this.dst.destroyed) return;
    if (!this.faulted && this.head === this.queue.length) {
      if (!this.dst.write(chunk)) this.waitForDrain();
      return;
    }
    const now = this.clock.now();
    if (!this.policy.admit) {
      this.queue.push({ chunk, arrivedAt: now, readyAt: now + this.policy.sampleDelay() });
      this.queuedBytes += chunk.length;
    } else {
      const admitted = this.policy.admit(chunk);
      const delay = admitted.pieces.length > 0 ? this.policy.sampleDelay() : 0;
      for (const piece of admitted.pieces) {
        this.queue.push({ chunk: piece.chunk, arrivedAt: now, readyAt: now + delay + piece.extraMs });
        this.queuedBytes += piece.chunk.length;
      }
      if (admitted.isLast) this.isLimited = true;
    }
    this.pump();
  };

  private readonly onEnd = (): void => {
    this.isEnded = true;
    this.endAt = this.clock.now() + (this.policy.endDelay?.() ?? 0);
    this.pump();
  };

  private readonly onDrain = (): void => {
    this.isWaitingDrain = false;
    this.pump();
  };

  private waitForDrain(): void {
    this.isWaitingDrain = true;
    this.updateFlow();
  }

  /** The connection's faults changed: re-read the policy and re-time what is queued. */
  refresh(): void {
    this.faulted = this.policy.isFaulted();
    for (let i = this.head; i < this.queue.length; i++) {
      const item = this.queue[i]!;
      // a delay is measured from arrival, so removing latency releases what already waited long enough
      item.readyAt = item.arrivedAt + this.policy.sampleDelay();
    }
    if (this.policy.bytesPerSecond() === Infinity) this.nextSendAt = 0;
    this.timer?.cancel();
    this.timer = undefined;
    this.pump();
  }

  /** Sends what is due from the head of the queue and arms one timer for the next due item. */
  private pump(): void {
    if (this.isDone) return;
    this.timer?.cancel();
    this.timer = undefined;
    while (this.head < this.queue.length && !this.isWaitingDrain) {
      if (this.policy.isHeld()) break;
      const item = this.queue[this.head]!;
      const now = this.clock.now();
      if (item.readyAt > now) {
        this.timer = this.clock.setTimer(item.readyAt - now, () => this.pump());
        break;
      }
      const bps = this.policy.bytesPerSecond();
      let piece = item.chunk;
      if (bps !== Infinity) {
        // a timer that fires late is caught up on (up to CATCH_UP_MS), so lateness does not add up into a lower rate
        const at = now - this.nextSendAt > CATCH_UP_MS ? now : this.nextSendAt;
        if (at > now) {
          this.timer = this.clock.setTimer(at - now, () => this.pump());
          break;
        }
        const slice = Math.max(1, Math.floor(bps / SLICES_PER_SECOND));
        if (piece.length > slice) piece = piece.subarray(0, slice);
        this.nextSendAt = at + (piece.length * 1000) / bps;
      }
      if (piece.length === item.chunk.length) {
        this.queue[this.head++] = undefined as unknown as Queued;
      } else {
        item.chunk = item.chunk.subarray(piece.length);
      }
      this.queuedBytes -= piece.length;
      if (!this.dst.write(piece)) this.isWaitingDrain = true;
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.isLimited && this.head === this.queue.length && !this.dst.destroyed) {
      // Toxiproxy's limit_data: what got through is written, then the connection closes
      this.dst.destroySoon();
      this.src.destroy();
      return;
    }
    const endWait = this.endAt - this.clock.now();
    if (this.isEnded && this.head === this.queue.length && !this.dst.destroyed && endWait > 0) {
      this.timer ??= this.clock.setTimer(endWait, () => this.pump());
    } else if (this.isEnded && this.head === this.queue.length && !this.dst.destroyed) {
      // a source that is fully closed will never read again: close the destination rather than leave it half open
      if (this.isSourceClosed) this.dst.destroySoon();
      else if (!this.dst.writableEnded) this.dst.end();
    }
    this.updateFlow();
  }

  private updateFlow(): void {
    const shouldPause = this.isWaitingDrain || this.queuedBytes > HIGH_WATER;
    if (shouldPause === this.isPaused) return;
    this.isPaused = shouldPause;
    if (shouldPause) this.src.pause();
    else this.src.resume();
  }

  /** the source socket closed: once the queue is written, the destination is closed too */
  sourceClosed(): void {
    if (!this.isEnded) this.endAt = this.clock.now() + (this.policy.endDelay?.() ?? 0);
    this.isEnded = true;
    this.isSourceClosed = true;
    this.pump();
  }

  /** bytes waiting in the queue (held by a blackhole, delayed, or paced) */
  pending(): number {
    return this.queuedBytes;
  }

  /** stops for good: the connection is gone, nothing queued will be delivered */
  stop(): void {
    this.isDone = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
    this.src.off('data', this.onData);
    this.src.off('end', this.onEnd);
    this.dst.off('drain', this.onDrain);
  }
}
