/**
 * One catch-up read per wake-up for all the live subscribers of a store.
 *
 * A subscriber first catches up on its own (replay, a filtered read per page,
 * store-subscription.ts). Once it has read everything readable it joins the
 * store's tail: from then on a wake-up (a NOTIFY, a poll, a local append) makes
 * the tail read what is new once, unfiltered, and hand every member the same
 * events in memory, in store order; each member keeps what its filter accepts.
 * Before, N subscribers meant N identical queries per wake-up.
 *
 * Cursors only ever move forward. A member may join with a cursor ahead of the
 * tail's (it read further on its own): the events it already has are skipped
 * by cursor. It may not join behind the tail (it would miss what the tail read
 * in between): it reads up to the tail's cursor on its own first
 * (`aheadOf`), then joins.
 */
export interface TailItem<T, C> {
  cursor: C;
  event: T;
}

export interface TailPage<T, C> {
  items: Array<TailItem<T, C>>;
  /** where the next read starts */
  cursor: C;
  /** a full page: there may be more to read right away */
  more: boolean;
}

export interface TailSource<T, C> {
  /** everything readable after `cursor`, in store order, unfiltered */
  fetch(cursor: C): TailPage<T, C> | Promise<TailPage<T, C>>;
  compare(a: C, b: C): number;
  /** `wake` is called whenever there may be something new; returns the unsubscribe */
  onWake(wake: () => void): () => void;
}

export interface TailMember<T, C> {
  /** everything up to here that the member accepts, it has */
  cursor: C;
  /** new events, in order, up to `cursor` (the member filters and skips what it has) */
  deliver(items: ReadonlyArray<TailItem<T, C>>, cursor: C): void;
  /** the tail's read failed: the member is no longer joined */
  fail(err: unknown): void;
}

export class SharedTail<T, C> {
  private readonly members = new Set<TailMember<T, C>>();
  private cursor: C | undefined;
  private unregister: (() => void) | undefined;
  private reading = false;
  private dirty = false;
  /** catch-up reads made (for tests and benchmarks) */
  reads = 0;

  constructor(private readonly source: TailSource<T, C>) {}

  /** the tail's cursor when a member at `cursor` must read up to it before it may join; else undefined */
  aheadOf(cursor: C): C | undefined {
    return this.cursor !== undefined && this.source.compare(this.cursor, cursor) > 0 ? this.cursor : undefined;
  }

  /** joins when the member is not behind the tail; synchronous, so no delivery can fall in between */
  join(member: TailMember<T, C>): boolean {
    if (this.aheadOf(member.cursor) !== undefined) return false;
    if (this.members.size === 0) {
      this.cursor = member.cursor;
      this.unregister = this.source.onWake(this.wake);
    }
    this.members.add(member);
    // a wake-up that came while the member read on its own was not for the tail: look once
    // (after join returns, so the member knows it joined before anything is delivered)
    queueMicrotask(this.wake);
    return true;
  }

  leave(member: TailMember<T, C>): void {
    if (!this.members.delete(member) || this.members.size > 0) return;
    // nobody follows: stop listening, and start again from the next joiner's cursor
    this.unregister?.();
    this.unregister = undefined;
    this.cursor = undefined;
  }

  get size(): number {
    return this.members.size;
  }

  private readonly wake = (): void => {
    this.dirty = true;
    if (!this.reading) void this.read();
  };

  private async read(): Promise<void> {
    this.reading = true;
    try {
      while (this.dirty && this.members.size > 0 && this.cursor !== undefined) {
        this.dirty = false;
        const from = this.cursor;
        let page: TailPage<T, C>;
        try {
          this.reads++;
          page = await this.source.fetch(from);
        } catch (err) {
          // every member hears it and falls back to reading on its own
          for (const m of [...this.members]) {
            this.leave(m);
            m.fail(err);
          }
          return;
        }
        // everyone left (or left and another joined from scratch) while the read was out
        if (this.cursor !== from || this.members.size === 0) continue;
        this.cursor = page.cursor;
        for (const m of [...this.members]) if (this.members.has(m)) m.deliver(page.items, page.cursor);
        if (page.more) this.dirty = true;
      }
    } finally {
      this.reading = false;
    }
  }
}
