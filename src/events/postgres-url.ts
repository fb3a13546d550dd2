/**
 * `postgres://user:password@host:port/db` as the PostgreSQL store sees it: a
 * description safe to print (never the password), and the translation of the
 * pg client's connection errors into the arena's typed errors.
 */
import { RuntimeError, UsageError, errorMessage } from '../shared/errors.js';

export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec.trim());
}

export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** `user@host:port/database`: what messages name */
  label: string;
  password?: string;
}

export function parsePostgresUrl(spec: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(spec.trim());
  } catch {
    throw new UsageError(
      `--store: ${redact(spec)} is not a valid postgres:// URL (postgres://user:password@host:port/database)`,
      { code: 'invalid_store' },
    );
  }
  const host = url.hostname || 'localhost';
  const port = url.port ? Number(url.port) : 5432;
  const database =
    decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres';
  const user = decodeURIComponent(url.username) || process.env.PGUSER || 'postgres';
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  return {
    host,
    port,
    database,
    user,
    label: `${user}@${host}:${port}/${database}`,
    ...(password !== undefined ? { password } : {}),
  };
}

/** the URL with its password replaced by *** (for messages and `location`) */
export function redact(spec: string): string {
  return spec.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/**
 * A connection or login failure, as a typed error naming host and port and
 * never the password: unreachable → RuntimeError (exit 3); a wrong password or
 * a missing database → UsageError (exit 2: the URL is wrong, not the machine).
 */
export function connectionError(err: unknown, target: PostgresTarget): Error {
  const code = (err as { code?: string }).code;
  const where = `PostgreSQL at ${target.host}:${target.port}`;
  const clean = (text: string) => (target.password ? text.split(target.password).join('***') : text);
  if (code === '28P01' || code === '28000') {
    return new UsageError(`${where} refused user "${target.user}": wrong password or no access (${code})`, {
      code: 'store_auth_failed',
      hint: 'check the user and password in the postgres:// URL',
    });
  }
  if (code === '3D000') {
    return new UsageError(`${where} has no database "${target.database}"`, {
      code: 'store_database_missing',
      hint: `create it first: createdb -h ${target.host} -p ${target.port} -U ${target.user} ${target.database}`,
    });
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EAI_AGAIN' ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    code === 'ECONNRESET' ||
    /timeout/i.test(errorMessage(err))
  ) {
    return new RuntimeError(`cannot reach ${where}: ${code ?? clean(errorMessage(err))}`, {
      code: 'store_unreachable',
      hint: 'is the server running and listening on that address?',
    });
  }
  return new RuntimeError(`${where} (database ${target.database}): ${clean(errorMessage(err))}`, {
    code: 'store_error',
  });
}
