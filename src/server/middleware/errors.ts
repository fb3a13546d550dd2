/**
 * The one error boundary: whatever a later stage or a handler throws, at once
 * or later, becomes a JSON problem `{error, code}` with its status (unknown
 * errors a generic 500, details to the log only; see ../http.ts).
 */
import { isArenaError } from '../../shared/errors.js';
import { ServiceUnavailableError } from '../errors.js';
import { sendError, type Logger } from '../../shared/http/respond.js';
import type { Exchange, Middleware } from '../pipeline.js';

export function errorBoundary(log: Logger, isClosing: () => boolean): Middleware {
  const fail = (ex: Exchange, err: unknown): void => {
    const headers: Record<string, string> = { ...ex.cors };
    // a request cut short by the shutdown (an aborted LLM call, a cancelled run) is a 503, not a 500
    if (isClosing() && !isArenaError(err))
      err = new ServiceUnavailableError('server shut down before this request finished');
    sendError(ex.res, err, log, headers);
  };
  return (ex, next) => {
    let pending: ReturnType<typeof next>;
    try {
      pending = next(ex);
    } catch (err) {
      return fail(ex, err);
    }
    if (pending) return pending.catch((err: unknown) => fail(ex, err));
  };
}
