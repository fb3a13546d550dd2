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
 * launchCluster() returns as soon as the URL is known and starts the cluster in
 * the background (`cluster.ready`), so a caller can go on meanwhile.
 *
 * Run directly (`node scripts/pg-cluster.mjs`) it prints the URL and keeps the
 * cluster until Ctrl-C.
 */
import { spawn, spawnSync } from 'node:child_process';
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
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line)
    throw new Error(
      'pg-cluster: running as root and there is no postgres user to run PostgreSQL as (install the postgresql package)',
    );
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function command(user, cmd, args) {
  const full = join(BIN, cmd);
  return user ? ['runuser', ['-u', 'postgres', '--', full, ...args]] : [full, args];
}

function failure(cmd, args, error, status, output) {
  if (error) return new Error(`pg-cluster: ${cmd} could not start: ${error.message} (run scripts/ensure-postgres.sh)`);
  return new Error(`pg-cluster: ${cmd} ${args.join(' ')} failed (${status}):\n${output}`);
}

/** for the exit hook, which cannot wait */
function runSync(user, cmd, args) {
  const result = spawnSync(...command(user, cmd, args), { encoding: 'utf8' });
  if (result.error || result.status !== 0)
    throw failure(cmd, args, result.error, result.status, `${result.stdout}${result.stderr}`);
  return result.stdout;
}

function run(user, cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(...command(user, cmd, args), { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', (error) => reject(failure(cmd, args, error)));
    child.once('close', (status) =>
      status === 0 ? resolve(output) : reject(failure(cmd, args, undefined, status, output)),
    );
  });
}

/**
 * @param {{ durable?: boolean }} [options] durable: keep fsync on (benchmarks); tests turn it off for speed,
 *   which costs nothing for them (they kill clients, never the server or the machine)
 */
export async function startCluster(options = {}) {
  const cluster = await launchCluster(options);
  try {
    await cluster.ready;
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/**
 * The cluster's URL at once; initdb and the server's start go on in the background
 * (`ready`, ~1.5 s), so the test run's workers start meanwhile. `stop()` waits for
 * the start to settle, then stops the server and deletes its directory.
 * @param {{ durable?: boolean }} [options] as startCluster's
 */
export async function launchCluster(options = {}) {
  if (!existsSync(join(BIN, 'initdb')))
    throw new Error(`pg-cluster: ${BIN}/initdb is missing: run sh scripts/ensure-postgres.sh`);
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), 'arena-pg-'));
  const password = randomBytes(12).toString('hex');
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) chownSync(pwfile, user.uid, user.gid);
  const data = join(dir, 'data');
  // by the server's pid file, not a flag: an exit while pg_ctl is still starting it stops it too
  const stopNow = () => {
    if (existsSync(join(data, 'postmaster.pid'))) {
      try {
        runSync(user, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already gone: nothing to stop
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopNow);
  const port = await freePort();
  const startServer = () => {
    const settings = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=200'];
    if (!options.durable) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
    return run(user, 'pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      settings.join(' '),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  };
  const ready = (async () => {
    await run(user, 'initdb', [
      '-D',
      data,
      '-U',
      'arena',
      '--pwfile',
      pwfile,
      '-A',
      'scram-sha-256',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    await startServer();
  })();
  ready.catch(() => undefined); // the caller sees a failure through ready or stop
  return {
    url: `postgres://arena:${password}@127.0.0.1:${port}/postgres`,
    host: '127.0.0.1',
    port,
    user: 'arena',
    password,
    dir,
    ready,
    /** stops the server only (fast shutdown: sessions are cut, as in a restart or a crash of PostgreSQL) */
    stopServer: () => run(user, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']),
    /** starts it again on the same port and data */
    startServer,
    /** a URL for another database of this cluster */
    urlFor: (database) => `postgres://arena:${password}@127.0.0.1:${port}/${database}`,
    async stop() {
      await ready.catch(() => undefined);
      process.removeListener('exit', stopNow);
      stopNow();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const cluster = await startCluster({ durable: process.argv.includes('--durable') });
  process.stdout.write(`${cluster.url}\n`);
  const end = () => cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', end);
  process.once('SIGTERM', end);
  setInterval(() => undefined, 1 << 30);
}
