/**
 * Typed errors. Each carries the process exit code the CLI maps it to and the
 * HTTP status the server maps it to, so both edges translate errors in one place.
 */
export interface ArenaErrorOptions {
  hint?: string;
  cause?: unknown;
  details?: unknown;
}

export class ArenaError extends Error {
  /** machine-readable code, e.g. `invalid_scenario` */
  readonly code: string;
  readonly exitCode: number;
  readonly status: number;
  readonly hint?: string;
  readonly details?: unknown;

  constructor(message: string, code = 'arena_error', exitCode = 3, status = 500, options: ArenaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    this.status = status;
    this.hint = options.hint;
    this.details = options.details;
  }
}

/** Bad input: a broken file, a wrong flag, an invalid body. Exit 2, HTTP 400. */
export class UsageError extends ArenaError {
  constructor(message: string, code = 'invalid_input', options: ArenaErrorOptions = {}) {
    super(message, code, 2, 400, options);
  }
}

/** Something named does not exist (agent, node, edge, route resource). Exit 2, HTTP 404. */
export class NotFoundError extends ArenaError {
  constructor(message: string, code = 'not_found', options: ArenaErrorOptions = {}) {
    super(message, code, 2, 404, options);
  }
}

/** State conflict: wrong expected version, a run already going. Exit 3, HTTP 409. */
export class ConflictError extends ArenaError {
  constructor(message: string, code = 'conflict', options: ArenaErrorOptions = {}) {
    super(message, code, 3, 409, options);
  }
}

/** A gate failed: expectation not met, score under the minimum, a regression. Exit 1. */
export class GateFailedError extends ArenaError {
  constructor(message: string, code = 'gate_failed', options: ArenaErrorOptions = {}) {
    super(message, code, 1, 422, options);
  }
}

/** A fault could not be applied to the target, or the target misbehaved. Exit 3. */
export class RuntimeError extends ArenaError {
  constructor(message: string, code = 'runtime_error', options: ArenaErrorOptions = {}) {
    super(message, code, 3, 500, options);
  }
}

/** A service the arena depends on (the event store) cannot take the work now. Exit 3, HTTP 503. */
export class UnavailableError extends ArenaError {
  constructor(message: string, code = 'unavailable', options: ArenaErrorOptions = {}) {
    super(message, code, 3, 503, options);
  }
}

/** The run was interrupted (Ctrl-C, SIGTERM, abort signal). Exit 130. */
export class CancelledError extends ArenaError {
  constructor(message = 'interrupted', options: ArenaErrorOptions = {}) {
    super(message, 'cancelled', 130, 503, options);
  }
}

export function isArenaError(err: unknown): err is ArenaError {
  return err instanceof ArenaError;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
