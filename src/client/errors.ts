import { ArenaError } from '../shared/errors.js';

/** The client was asked for a service its config does not describe. */
export class NotConfiguredError extends ArenaError {
  constructor(
    readonly service: string,
    hint?: string,
  ) {
    super(`the '${service}' service is not configured${hint ? `: ${hint}` : ''}`, {
      code: 'not_configured',
      exitCode: 2,
      status: 503,
      hint: `add a '${service}' section to the client config`,
    });
  }
}

/** The client was closed; its services are gone. */
export class ClientClosedError extends ArenaError {
  constructor(what: string) {
    super(`client is closed: cannot use ${what}`, { code: 'client_closed', status: 503 });
  }
}

export interface ServiceCloseFailure {
  service: string;
  error: unknown;
}

/** close() ran every stop/close and some failed; all failures are here (AggregateError-like). */
export class ClientCloseError extends ArenaError {
  readonly errors: unknown[];
  readonly failures: ServiceCloseFailure[];

  constructor(failures: ServiceCloseFailure[]) {
    const list = failures
      .map((f) => `${f.service}: ${f.error instanceof Error ? f.error.message : String(f.error)}`)
      .join('; ');
    super(`closing the client failed for ${failures.length} service${failures.length === 1 ? '' : 's'}: ${list}`, {
      code: 'close_failed',
    });
    this.failures = failures;
    this.errors = failures.map((f) => f.error);
  }
}
