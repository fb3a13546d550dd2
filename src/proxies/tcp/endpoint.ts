/** `HOST:PORT` as users write an upstream (`127.0.0.1:7101`, `db.local:5432`, `[::1]:7101`). */
import { UsageError } from '../../shared/errors.js';

/** where a TCP proxy connects */
export interface TcpEndpoint {
  host: string;
  port: number;
}

export function parseHostPort(text: string, what = 'upstream'): TcpEndpoint {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port < 1 || port > 65535) {
    throw new UsageError(
      `${what}: expected HOST:PORT with a port from 1 to 65535 (e.g. 127.0.0.1:7101 or [::1]:7101), got "${text}"`,
      { code: 'invalid_endpoint' },
    );
  }
  return { host: match[1] ?? match[2]!, port };
}

/** A listen that failed for a reason the user can fix (port taken, privileged, no such address) becomes a UsageError naming it. */
export function listenFailure(err: unknown, what: string, host: string, port: number): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'EADDRINUSE'
      ? 'is already in use'
      : code === 'EACCES'
        ? 'needs privileges to bind'
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'cannot be bound: no such local address'
          : undefined;
  if (!why) return err;
  return new UsageError(`${what} port ${port} on ${host} ${why}`, {
    code: code === 'EADDRINUSE' ? 'port_in_use' : 'cannot_listen',
    hint: 'pick another port, or 0 for a free one',
    cause: err,
  });
}
