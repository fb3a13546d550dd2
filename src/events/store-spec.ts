/**
 * What a `--store` value names, without opening anything or loading a
 * database driver: commands decide early (and cheaply) what kind of store
 * they were given.
 */
import { isPostgresUrl } from './postgres-url.js';

export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/** the same default as src/events/sqlite.ts, without loading the native module */
export const DEFAULT_STORE_PATH = '.arena/arena.db';

/** the store a command uses: its --store flag, else ARENA_STORE, else `fallback` */
export function storeSpec(flag: string | undefined, env: NodeJS.ProcessEnv, fallback?: string): string | undefined {
  if (flag !== undefined) return flag;
  const fromEnv = env.ARENA_STORE?.trim();
  return fromEnv ? fromEnv : fallback;
}

/** memory, a postgres:// URL, or else a SQLite file (undefined or empty: the default file) */
export function storeKind(spec: string | undefined): StoreKind {
  const value = spec?.trim() || DEFAULT_STORE_PATH;
  if (value === 'memory' || value === ':memory:') return 'memory';
  return isPostgresUrl(value) ? 'postgres' : 'sqlite';
}
