/**
 * One proxied connection: the client's socket, the socket to the upstream,
 * a Direction each way, and the faults that act on this connection. Faults
 * are independent stages: each is added and removed on its own, and the
 * directions re-read what the remaining ones ask for.
 */
import type { Socket } from 'node:net';
import type { Clock, TimerHandle } from '../../shared/clock.js';
import type { Random } from '../../shared/random.js';
import { Direction, type DirectionPolicy } from './direction.js';
import type { TcpFaultSpec } from './fault-spec.js';
import { ToxicStages } from './toxic-stage.js';
import type { ToxicAttributes, ToxicStream } from './toxic-spec.js';

export interface LinkCounters {
  clientToUpstream(bytes: number): void;
  upstreamToClient(bytes: number): void;
  closedByTimeout(): void;
}

export class Link implements DirectionPolicy {
  private readonly faults = new Map<string, TcpFaultSpec>();
  private readonly timeouts = new Map<string, TimerHandle>();
  private readonly up: Direction;
  private readonly down: Direction;
  /** Toxiproxy's toxics, one set per direction (upstream = client → upstream) */
  private readonly stages: Record<ToxicStream, ToxicStages>;
  private isClosed = false;

  constructor(
    readonly id: number,
    readonly client: Socket,
    readonly upstream: Socket,
    private readonly clock: Clock,
    private readonly random: Random,
    counters: LinkCounters,
    private readonly onClosed: (link: Link) => void,
  ) {
    const hooks = { reset: () => this.reset(), destroy: () => this.destroy(), refresh: () => this.refresh() };
    this.stages = {
      upstream: new ToxicStages(clock, random, hooks),
      downstream: new ToxicStages(clock, random, hooks),
    };
    this.up = new Direction(client, upstream, clock, this.policyWith(this.stages.upstream), counters.clientToUpstream);
    this.down = new Direction(
      upstream,
      client,
      clock,
      this.policyWith(this.stages.downstream),
      counters.upstreamToClient,
    );
    this.closedByTimeout = counters.closedByTimeout;
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      // a failure on one side (a reset, the upstream refusing or unreachable) reaches the other
      // peer as a reset, so it sees a broken connection rather than a clean end of stream
      a.on('error', () => this.reset());
      a.on('close', () => this.halfGone(a, b));
    }
  }

  private readonly closedByTimeout: () => void;

  /** one direction's policy: the connection's faults (both directions) and that direction's toxics */
  private policyWith(stages: ToxicStages): DirectionPolicy {
    return {
      isFaulted: () => this.isFaulted() || stages.isActive(),
      isHeld: () => this.isHeld() || stages.isHeld(),
      sampleDelay: () => this.sampleDelay() + stages.sampleDelay(),
      bytesPerSecond: () => Math.min(this.bytesPerSecond(), stages.bytesPerSecond()),
      admit: (chunk) => stages.admit(chunk),
      endDelay: () => stages.endDelay(),
    };
  }

  /** Makes a toxic act on one direction of this connection, or updates it there. */
  setToxic(name: string, stream: ToxicStream, attributes: ToxicAttributes): void {
    if (this.isClosed) return;
    this.stages[stream].set(name, attributes);
  }

  /** `isCleanup`: the toxic was deleted, not just re-decided (a timeout then closes the connection) */
  removeToxic(name: string, stream: ToxicStream, isCleanup: boolean): void {
    if (this.isClosed) return;
    this.stages[stream].remove(name, isCleanup);
  }

  hasToxic(name: string, stream: ToxicStream): boolean {
    return this.stages[stream].has(name);
  }

  /** one socket is gone: the other is closed once what is queued toward it has been written */
  private halfGone(gone: Socket, other: Socket): void {
    if (other.destroyed) return this.finish();
    (gone === this.client ? this.up : this.down).sourceClosed();
    other.once('close', () => this.finish());
  }

  private finish(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const timer of this.timeouts.values()) timer.cancel();
    this.timeouts.clear();
    this.stages.upstream.stop();
    this.stages.downstream.stop();
    this.up.stop();
    this.down.stop();
    this.onClosed(this);
  }

  /** Makes a fault act on this connection. */
  addFault(id: string, spec: TcpFaultSpec): void {
    if (this.isClosed) return;
    if (spec.type === 'reset') return this.reset();
    this.faults.set(id, spec);
    if (spec.type === 'timeout' && spec.timeout_ms > 0) {
      // Toxiproxy's timeout: nothing gets through, and after T the connection is closed
      this.timeouts.set(
        id,
        this.clock.setTimer(spec.timeout_ms, () => {
          this.closedByTimeout();
          this.destroy();
        }),
      );
    }
    this.refresh();
  }

  removeFault(id: string): void {
    if (!this.faults.delete(id)) return;
    this.timeouts.get(id)?.cancel();
    this.timeouts.delete(id);
    this.refresh();
  }

  hasFault(id: string): boolean {
    return this.faults.has(id);
  }

  private refresh(): void {
    this.up.refresh();
    this.down.refresh();
  }

  /** RST both sides: the client reads ECONNRESET */
  reset(): void {
    this.finish();
    if (!this.client.destroyed) this.client.resetAndDestroy();
    if (!this.upstream.destroyed) this.upstream.resetAndDestroy();
  }

  destroy(): void {
    this.finish();
    this.client.destroy();
    this.upstream.destroy();
  }

  // DirectionPolicy: what the faults on this connection ask of both directions

  isFaulted(): boolean {
    return this.faults.size > 0;
  }

  isHeld(): boolean {
    for (const f of this.faults.values()) if (f.type === 'blackhole' || f.type === 'timeout') return true;
    return false;
  }

  sampleDelay(): number {
    let delay = 0;
    for (const f of this.faults.values()) {
      if (f.type !== 'latency') continue;
      // jitter is ± jitter_ms around latency_ms, never below zero
      const jitter = f.jitter_ms === 0 ? 0 : (this.random.next() * 2 - 1) * f.jitter_ms;
      delay += Math.max(0, f.latency_ms + jitter);
    }
    return delay;
  }

  bytesPerSecond(): number {
    let bps = Infinity;
    for (const f of this.faults.values()) if (f.type === 'bandwidth') bps = Math.min(bps, f.bytes_per_s);
    return bps;
  }
}
