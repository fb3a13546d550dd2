/**
 * Shutdown (DESIGN §7): once it starts, new requests get 503 and requests in
 * flight are told to wrap up (through the shutdown signal) and answered. The
 * gate remembers which async requests are still running so the server can
 * wait for them, and on a shutdown that runs out of time answer each with a
 * 503 rather than drop its connection.
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
  private readonly unanswered = new Set<ServerResponse>();

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
    this.unanswered.add(res);
    this.inFlight.add(pending);
    void pending.finally(() => {
      this.inFlight.delete(pending);
      this.unanswered.delete(res);
    });
    return pending;
  };

  /** Inside the error boundary: a request that arrives while closing is a 503 with the usual problem body. */
  readonly refuseWhileClosing: Middleware = (ex, next) => {
    if (this.closing) throw new ServiceUnavailableError();
    return next(ex);
  };

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
   * without an answer gets a 503 (rather than a dropped connection).
   * Resolves once those answers are flushed.
   */
  async answerUnfinished(): Promise<void> {
    const pending: Array<Promise<void>> = [];
    for (const res of [...this.unanswered]) {
      if (res.headersSent || res.writableEnded) continue;
      pending.push(new Promise<void>((resolve) => res.once('close', resolve).once('finish', resolve)));
      sendJson(
        res,
        503,
        { error: 'server shut down before this request finished', code: 'unavailable' },
        { Connection: 'close' },
      );
    }
    this.unanswered.clear();
    let timer: NodeJS.Timeout | undefined;
    // a client that does not read its answer cannot hold the shutdown up
    await Promise.race([
      Promise.all(pending),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, 500)).unref()),
    ]);
    clearTimeout(timer);
  }
}
