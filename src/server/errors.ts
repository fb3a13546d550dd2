/**
 * HTTP-only errors. They extend ArenaError so the one error boundary maps
 * them like every other typed error: `{error, code}` with their status.
 */
import { ArenaError } from '../shared/errors.js';

export class HttpError extends ArenaError {
  constructor(status: number, code: string, message: string) {
    super(message, { code, exitCode: status >= 500 ? 3 : 2, status });
  }
}

export class UnauthorizedError extends HttpError {
  constructor() {
    super(401, 'unauthorized', 'missing or invalid API key');
  }
}

export class ServiceUnavailableError extends HttpError {
  constructor(message = 'server is shutting down') {
    super(503, 'unavailable', message);
  }
}
