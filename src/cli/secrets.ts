/**
 * Keys and tokens without a command line `ps` shows (DESIGN §7): each comes
 * from its flag, from a file (`--token-file`, `--api-key-file`), or from an
 * environment variable, in that order. A file holds the secret alone; one
 * trailing line break is dropped, as `echo s3cret > file` writes one.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertUsableApiKey } from '../shared/api-key.js';
import { UsageError, errorMessage } from '../shared/errors.js';

export interface SecretSource {
  /** the flag's value, e.g. --token */
  value: string | undefined;
  /** its name, for errors: "--token" */
  flag: string;
  /** the file flag's value, e.g. --token-file */
  file: string | undefined;
  fileFlag: string;
  /** the environment variable's name and the environment */
  envName: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** The secret, or undefined when none of the three is given; a usable one or a UsageError naming where it came from. */
export function readSecret(source: SecretSource): string | undefined {
  if (source.value !== undefined && source.file !== undefined)
    throw new UsageError(`give ${source.flag} or ${source.fileFlag}, not both`, { code: 'invalid_flags' });
  let secret: string | undefined;
  let where: string;
  if (source.file !== undefined) {
    where = `${source.fileFlag} ${source.file}`;
    try {
      secret = readFileSync(resolve(source.cwd, source.file), 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new UsageError(`${source.fileFlag}: cannot read ${source.file}: ${errorMessage(err)}`, {
        code: 'invalid_secret_file',
      });
    }
  } else if (source.value !== undefined) {
    where = source.flag;
    secret = source.value;
  } else {
    where = source.envName;
    secret = source.env[source.envName] || undefined;
  }
  if (secret !== undefined) assertUsableApiKey(secret, where);
  return secret;
}

/** A proxy's control-port token: --token, --token-file or ARENA_PROXY_TOKEN. */
export function readProxyToken(
  opts: { token?: string; tokenFile?: string },
  ctx: { env: NodeJS.ProcessEnv; cwd: string },
): string | undefined {
  return readSecret({
    value: opts.token,
    flag: '--token',
    file: opts.tokenFile,
    fileFlag: '--token-file',
    envName: 'ARENA_PROXY_TOKEN',
    env: ctx.env,
    cwd: ctx.cwd,
  });
}
