/**
 * Shutdown (DESIGN §7): once it starts, new requests get 503 and requests in
 * flight are told to wrap up (through the shutdown signal) and answered. The
 * gate remembers which async requests are still running so the server can
 * wait for them, and on a shutdown that runs out of time answer each with a
 * 503 rather than drop its connection. A request whose handler committed
 * (`commit`: a fault applied, its record on the way) is never answered that
 * way: a 503 could follow its record. The shutdown waits for its own answer.
 */
import type { ServerResponse } from 'node:http';
import { ServiceUnavailableError } from '../errors.js';
import { sendJson } from '../../shared/http/respond.js';
import type { Middleware } from '../pipeline.js';

export class ShutdownGate {
  private closing = false;
  private readonly controller = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();
  /** responses of async handlers not yet answered: on a forced shutdown each still gets a 503 */
  private readonly unanswered = new Map<ServerResponse, Promise<unknown>>();
  /** of those, the ones whose handler committed: answered by the handler only, however long the shutdown waits */
  private readonly committed = new Set<ServerResponse>();

  get isClosing(): boolean {
    return this.closing;
  }

  /** aborted when the shutdown starts: long requests wrap up and answer (a scenario with its partial report) */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Outermost stage: keeps track of requests answered asynchronously (the boundary inside never rejects). */
  readonly track: Middleware = (ex, next) => {
    const pending = next(ex);
    if (!pending) return;
    const { res } = ex;
    this.unanswered.set(res, pending);
    this.inFlight.add(pending);
    void pending.finally(() => {
      this.inFlight.delete(pending);
      this.unanswered.delete(res);
      this.committed.delete(res);
    });
    return pending;
  };

  /** Inside the error boundary: a request that arrives while closing is a 503 with the usual problem body. */
  readonly refuseWhileClosing: Middleware = (ex, next) => {
    if (this.closing) throw new ServiceUnavailableError();
    return next(ex);
  };

  /**
   * The handler of `res` is about to do what cannot be undone (apply a fault and record it): once the
   * shutdown has begun that is refused here, with nothing done; otherwise the shutdown waits for the
   * handler's own answer instead of cutting it short with a 503.
   */
  commit(res: ServerResponse): void {
    if (this.closing) throw new ServiceUnavailableError('server is shutting down: nothing was applied');
    this.committed.add(res);
  }

  /** resolves when every committed request has been answered by its handler, or after `timeoutMs` */
  async committedSettled(timeoutMs: number): Promise<void> {
    const pending = [...this.committed].map((res) => this.unanswered.get(res));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(pending),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)).unref()),
    ]);
    clearTimeout(timer);
  }

  /** starts the shutdown: new requests are refused and those in flight are told to wrap up */
  close(): void {
    this.closing = true;
    if (!this.controller.signal.aborted) this.controller.abort(new ServiceUnavailableError('server is shutting down'));
  }

  /** resolves when every request in flight has been answered */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * The last word on a shutdown that ran out of time: every request still
   * without an answer gets a 503 (rather than a dropped connection), except
   * committed ones, which answer for themselves. Resolves once those answers are flushed.
   */
  async answerUnfinished(): Promise<void> {
    const pending: Array<Promise<void>> = [];
    for (const res of [...this.unanswered.keys()]) {
      if (res.headersSent || res.writableEnded || this.committed.has(res)) continue;
      this.unanswered.delete(res);
      pending.push(new Promise<void>((resolve) => res.once('close', resolve).once('finish', resolve)));
      sendJson(
        res,
        503,
        { error: 'server shut down before this request finished', code: 'unavailable' },
        { Connection: 'close' },
      );
    }
    let timer: NodeJS.Timeout | undefined;
    // a client that does not read its answer cannot hold the shutdown up
    await Promise.race([
      Promise.all(pending),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)).unref()),
    ]);
    clearTimeout(timer);
  }
}
