/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a
 * temporary directory, started on a free loopback port with password
 * (scram) authentication, stopped and deleted afterwards. PostgreSQL refuses
 * to run as root, so under root the server runs as the `postgres` user.
 *
 *   import { startCluster } from './scripts/pg-cluster.mjs';
 *   const cluster = await startCluster();   // cluster.url = postgres://arena:…@127.0.0.1:PORT/postgres
 *   await cluster.stop();
 *
 * Run directly (`node scripts/pg-cluster.mjs`) it prints the URL and keeps the
 * cluster until Ctrl-C.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const BIN = process.env.ARENA_PG_BIN ?? '/usr/lib/postgresql/15/bin';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function postgresUser() {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('pg-cluster: running as root and there is no postgres user to run PostgreSQL as (install the postgresql package)');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function run(user, cmd, args) {
  const full = join(BIN, cmd);
  const result = user ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' }) : spawnSync(full, args, { encoding: 'utf8' });
  if (result.error) throw new Error(`pg-cluster: ${cmd} could not start: ${result.error.message} (run scripts/ensure-postgres.sh)`);
  if (result.status !== 0) throw new Error(`pg-cluster: ${cmd} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/**
 * @param {{ durable?: boolean }} [options] durable: keep fsync on (benchmarks); tests turn it off for speed,
 *   which costs nothing for them (they kill clients, never the server or the machine)
 */
export async function startCluster(options = {}) {
  if (!existsSync(join(BIN, 'initdb'))) throw new Error(`pg-cluster: ${BIN}/initdb is missing: run sh scripts/ensure-postgres.sh`);
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'arena-pg-'));
  const password = randomBytes(12).toString('hex');
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  const data = join(dir, 'data');
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        run(user, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone: nothing to stop
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(user, 'initdb', ['-D', data, '-U', 'arena', '--pwfile', pwfile, '-A', 'scram-sha-256', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    const port = await freePort();
    const settings = [`-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", '-c max_connections=200'];
    if (!options.durable) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
    run(user, 'pg_ctl', ['-D', data, '-l', join(dir, 'log'), '-o', settings.join(' '), '-w', '-t', '30', 'start']);
    started = true;
    process.once('exit', stop);
    const url = `postgres://arena:${password}@127.0.0.1:${port}/postgres`;
    return {
      url,
      host: '127.0.0.1',
      port,
      user: 'arena',
      password,
      dir,
      /** a URL for another database of this cluster */
      urlFor: (database) => `postgres://arena:${password}@127.0.0.1:${port}/${database}`,
      async stop() {
        process.removeListener('exit', stop);
        stop();
      },
    };
  } catch (err) {
    stop();
    throw err;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cluster = await startCluster({ durable: process.argv.includes('--durable') });
  process.stdout.write(`${cluster.url}\n`);
  const end = () => cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  setInterval(() => undefined, 1 << 30);
}
