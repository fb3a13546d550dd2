/**
 * Typed errors. Each carries the process exit code the CLI maps it to and the
 * HTTP status the server maps it to, so both edges translate errors in one place.
 *
 * Recognise them with `isArenaError(err)` and their `code`, not `instanceof`: a program can hold two
 * copies of the package (two versions in node_modules, or a CommonJS and an ESM build), and an error
 * from one copy is no instance of the other's classes. Every ArenaError carries a brand that
 * `Symbol.for` shares across copies.
 */
export interface ArenaErrorOptions {
  /** machine-readable code, e.g. `invalid_scenario`; each class has a default */
  code?: string;
  /** what the user can do about it, printed under the message */
  hint?: string;
  cause?: unknown;
  details?: unknown;
}

/** what a subclass fixes on top of the options: the exit code and HTTP status its kind of failure maps to */
export interface ArenaErrorInit extends ArenaErrorOptions {
  exitCode?: number;
  status?: number;
}

const BRAND = Symbol.for('chaos-arena.error');

export class ArenaError extends Error {
  /** machine-readable code, e.g. `invalid_scenario` */
  readonly code: string;
  readonly exitCode: number;
  readonly status: number;
  readonly hint?: string;
  readonly details?: unknown;

  constructor(message: string, options: ArenaErrorInit = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? 'arena_error';
    this.exitCode = options.exitCode ?? 3;
    this.status = options.status ?? 500;
    this.hint = options.hint;
    this.details = options.details;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** The subclasses take `(message, { code, hint, cause, details })`, each with its own default code. */
function init(options: ArenaErrorOptions, code: string): ArenaErrorOptions {
  return { ...options, code: options.code ?? code };
}

/** Bad input: a broken file, a wrong flag, an invalid body. Exit 2, HTTP 400. */
export class UsageError extends ArenaError {
  constructor(message: string, options: ArenaErrorOptions = {}) {
    super(message, { ...init(options, 'invalid_input'), exitCode: 2, status: 400 });
  }
}

/** Something named does not exist (agent, node, edge, route resource). Exit 2, HTTP 404. */
export class NotFoundError extends ArenaError {
  constructor(message: string, options: ArenaErrorOptions = {}) {
    super(message, { ...init(options, 'not_found'), exitCode: 2, status: 404 });
  }
}

/** State conflict: wrong expected version, a run already going. Exit 3, HTTP 409. */
export class ConflictError extends ArenaError {
  constructor(message: string, options: ArenaErrorOptions = {}) {
    super(message, { ...init(options, 'conflict'), exitCode: 3, status: 409 });
  }
}

/** A gate failed: expectation not met, score under the minimum, a regression. Exit 1. */
export class GateFailedError extends ArenaError {
  constructor(message: string, options: ArenaErrorOptions = {}) {
    super(message, { ...init(options, 'gate_failed'), exitCode: 1, status: 422 });
  }
}

/** A fault could not be applied to the target, or the target misbehaved. Exit 3. */
export class RuntimeError extends ArenaError {
  constructor(message: string, options: ArenaErrorOptions = {}) {
    super(message, { ...init(options, 'runtime_error'), exitCode: 3, status: 500 });
  }
}

/** A service the arena depends on (the event store) cannot take the work now. Exit 3, HTTP 503. */
export class UnavailableError extends ArenaError {
  constructor(message: string, options: ArenaErrorOptions = {}) {
    super(message, { ...init(options, 'unavailable'), exitCode: 3, status: 503 });
  }
}

/** The run was interrupted (Ctrl-C, SIGTERM, abort signal). Exit 130. */
export class CancelledError extends ArenaError {
  constructor(message = 'interrupted', options: ArenaErrorOptions = {}) {
    super(message, { ...options, code: 'cancelled', exitCode: 130, status: 503 });
  }
}

/**
 * The run was told to stop by an emergency stop (`arena stop`, `POST /arena/stop`): faults reverted,
 * report written with status `stopped`. Exit 130, like an interrupt; the abort reason a run is given.
 */
export class StoppedError extends ArenaError {
  constructor(message = 'stopped by an emergency stop', options: ArenaErrorOptions = {}) {
    super(message, { ...options, code: 'stopped', exitCode: 130, status: 503 });
  }
}

/**
 * Whether `err` is an ArenaError, from this copy of the package or another one; with `code`, also
 * whether it is that one (`isArenaError(err, 'invalid_scenario')`).
 */
export function isArenaError(err: unknown, code?: string): err is ArenaError {
  const branded =
    err instanceof ArenaError ||
    (typeof err === 'object' &&
      err !== null &&
      (err as Record<symbol, unknown>)[BRAND] === true &&
      typeof (err as { code?: unknown }).code === 'string');
  return branded && (code === undefined || (err as ArenaError).code === code);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
