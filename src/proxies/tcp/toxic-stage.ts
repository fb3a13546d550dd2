/**
 * The toxics acting on one direction of one connection, and what they ask
 * of that Direction: delay, pacing, holding, what an arriving chunk becomes
 * (dropped, cut at a data limit, sliced) and how long the end of stream waits.
 * Timers (timeout, reset_peer) live here and end with the toxic or the link.
 */
import type { Clock, TimerHandle } from '../../shared/clock.js';
import type { Random } from '../../shared/random.js';
import type { ToxicAttributes } from './toxic-spec.js';

/** what an arriving chunk becomes; `isLast`: the connection closes once these pieces are written */
export interface Admitted {
  pieces: Array<{ chunk: Buffer; extraMs: number }>;
  isLast: boolean;
}

export interface StageHooks {
  /** RST both sides (reset_peer) */
  reset(): void;
  /** close both sides (timeout ran out, or a timeout toxic was removed) */
  destroy(): void;
  /** the toxics changed: the directions re-read their policy */
  refresh(): void;
}

interface Active {
  attributes: ToxicAttributes;
  /** bytes let through by a limit_data toxic, kept across updates as Toxiproxy keeps its state */
  sent: number;
  timer?: TimerHandle;
  isResetting?: boolean;
}

export class ToxicStages {
  private readonly toxics = new Map<string, Active>();

  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly hooks: StageHooks,
  ) {}

  /** adds or updates a toxic; an update keeps a limit's count and restarts a timeout's clock */
  set(name: string, attributes: ToxicAttributes): void {
    const previous = this.toxics.get(name);
    previous?.timer?.cancel();
    const active: Active = { attributes, sent: previous?.sent ?? 0 };
    this.toxics.set(name, active);
    if (attributes.type === 'timeout' && attributes.timeout > 0) {
      active.timer = this.clock.setTimer(attributes.timeout, () => this.hooks.destroy());
    }
    this.hooks.refresh();
  }

  /**
   * Removes a toxic. `isCleanup`: the toxic is deleted (not merely re-decided), so a timeout
   * closes the connection it held, as Toxiproxy's does: the data it dropped would corrupt the stream.
   */
  remove(name: string, isCleanup: boolean): void {
    const active = this.toxics.get(name);
    if (!active) return;
    active.timer?.cancel();
    this.toxics.delete(name);
    if (isCleanup && active.attributes.type === 'timeout') return this.hooks.destroy();
    this.hooks.refresh();
  }

  has(name: string): boolean {
    return this.toxics.has(name);
  }

  stop(): void {
    for (const active of this.toxics.values()) active.timer?.cancel();
    this.toxics.clear();
  }

  isActive(): boolean {
    return this.toxics.size > 0;
  }

  /** a bandwidth of 0 lets nothing through (Toxiproxy's rate 0) */
  isHeld(): boolean {
    for (const { attributes: a } of this.toxics.values()) if (a.type === 'bandwidth' && a.rate === 0) return true;
    return false;
  }

  sampleDelay(): number {
    let delay = 0;
    for (const { attributes: a } of this.toxics.values()) {
      if (a.type !== 'latency') continue;
      // Toxiproxy's jitter: latency ± jitter, never below zero
      const jitter = a.jitter === 0 ? 0 : (this.random.next() * 2 - 1) * a.jitter;
      delay += Math.max(0, a.latency + jitter);
    }
    return delay;
  }

  bytesPerSecond(): number {
    let bps = Infinity;
    for (const { attributes: a } of this.toxics.values())
      if (a.type === 'bandwidth' && a.rate > 0) bps = Math.min(bps, a.rate * 1000);
    return bps;
  }

  endDelay(): number {
    let delay = 0;
    for (const { attributes: a } of this.toxics.values()) if (a.type === 'slow_close') delay = Math.max(delay, a.delay);
    return delay;
  }

  admit(chunk: Buffer): Admitted {
    let isLast = false;
    for (const active of this.toxics.values()) {
      const a = active.attributes;
      if (a.type === 'timeout') return { pieces: [], isLast: false };
      if (a.type === 'reset_peer') {
        // Toxiproxy's reset_peer: the first data it sees starts the clock; nothing more gets through
        if (!active.isResetting) {
          active.isResetting = true;
          active.timer = this.clock.setTimer(a.timeout, () => this.hooks.reset());
        }
        return { pieces: [], isLast: false };
      }
    }
    for (const active of this.toxics.values()) {
      const a = active.attributes;
      if (a.type !== 'limit_data') continue;
      const left = Math.max(0, a.bytes - active.sent);
      if (chunk.length >= left) {
        chunk = chunk.subarray(0, left);
        isLast = true;
      }
    }
    for (const active of this.toxics.values()) if (active.attributes.type === 'limit_data') active.sent += chunk.length;
    let pieces = chunk.length > 0 ? [{ chunk, extraMs: 0 }] : [];
    for (const { attributes: a } of this.toxics.values()) {
      if (a.type !== 'slicer' || chunk.length === 0) continue;
      pieces = this.slice(chunk, a.average_size, a.size_variation).map((piece, i) => ({
        chunk: piece,
        extraMs: (i * a.delay) / 1000,
      }));
    }
    return { pieces, isLast };
  }

  /** cuts into pieces of about `average` ± `variation` bytes, halving as Toxiproxy's slicer does */
  private slice(chunk: Buffer, average: number, variation: number): Buffer[] {
    const out: Buffer[] = [];
    const stack: Array<[number, number]> = [[0, chunk.length]];
    while (stack.length > 0) {
      const [start, end] = stack.pop()!;
      if (end - start - average <= variation || end - start < 2) {
        out.push(chunk.subarray(start, end));
        continue;
      }
      let mid = start + Math.floor((end - start) / 2);
      if (variation > 0) mid += Math.floor(this.random.next() * variation * 2) - variation;
      mid = Math.min(end - 1, Math.max(start + 1, mid));
      // right first on the stack, so pieces come out in order
      stack.push([mid, end], [start, mid]);
    }
    return out;
  }
}
