/**
 * Resolving an agent's pid against real processes: listeners found by port (IPv4 and a dual-stack
 * `::` one) while hundreds of sockets sit in TIME_WAIT, a restarted listener found again, and
 * command-line matches that skip the processes above the arena.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolvePid } from '../../../../src/targets/process/pid.js';
import { ancestorsOf, forEachLine, listeningInodes } from '../../../../src/targets/process/proc.js';
import { readCmdline } from '../../../../src/shared/proc.js';
import { RuntimeError } from '../../../../src/shared/errors.js';

const children: ChildProcess[] = [];
const servers: Server[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/**
 * a node process listening on a port the kernel picks, on `host`; resolves with the child and its port.
 * In its own session (as an agent must be: one in the arena's group or session is refused) unless `sameGroup`.
 */
async function listener(
  host: string,
  tag = 'pid-test',
  sameGroup = false,
): Promise<{ child: ChildProcess; port: number }> {
  const code = `const s = require('node:net').createServer(); s.listen(0, ${JSON.stringify(host)}, () => console.log(s.address().port)); setInterval(() => {}, 1000); // ${tag}`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'], detached: !sameGroup });
  children.push(child);
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, port: Number(line.toString().trim()) };
}

/** `n` short connections to a local server, closed by our side first: each leaves a socket in TIME_WAIT */
async function timeWaits(n: number): Promise<void> {
  const server = createServer((socket) => socket.on('error', () => {}).resume());
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  for (let i = 0; i < n; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, n - i) }, async () => {
        const socket = connect(port, '127.0.0.1');
        await once(socket, 'connect');
        socket.end();
        await once(socket, 'close');
      }),
    );
  }
}

const ctx = (agentId: string) => ({ agentId, baseDir: process.cwd() });

describe('pid by port', () => {
  it('the kernel lists every listening socket before any in another state (what listeningInodes stops on)', async () => {
    await listener('127.0.0.1');
    await timeWaits(300);
    const states: string[] = [];
    forEachLine('/proc/net/tcp', (line) => {
      states.push(line.trim().split(/\s+/)[3]!);
      return true;
    });
    expect(states.filter((s) => s === '06').length).toBeGreaterThanOrEqual(300);
    const lastListener = states.lastIndexOf('0A');
    const firstOther = states.findIndex((s) => s !== '0A');
    expect(lastListener).toBeGreaterThanOrEqual(0);
    expect(firstOther).toBeGreaterThan(lastListener);
  });

  it('finds an IPv4 listener and a dual-stack one among TIME_WAIT sockets, and the same inodes a whole read finds', async () => {
    const [v4, dual] = await Promise.all([listener('127.0.0.1'), listener('::')]);
    await timeWaits(200);
    for (const { child, port } of [v4, dual]) {
      expect(resolvePid({ port }, ctx('a'))).toBe(child.pid);
      // the same as reading both tables whole
      const whole = new Set<string>();
      for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
        for (const line of readFileSync(file, 'latin1').split('\n').slice(1)) {
          const cols = line.trim().split(/\s+/);
          if (cols[3] === '0A' && cols[1]!.endsWith(`:${port.toString(16).toUpperCase().padStart(4, '0')}`))
            whole.add(cols[9]!);
        }
      }
      expect(listeningInodes(port)).toEqual(whole);
    }
  });

  it('keeps the pid while it holds the socket it was found with, finds the next process once it is gone, and says when nothing listens', async () => {
    const first = await listener('127.0.0.1');
    const sockets: { inodes?: ReadonlySet<string> } = {};
    const pid = resolvePid({ port: first.port }, { ...ctx('w'), sockets });
    expect(pid).toBe(first.child.pid);
    expect(sockets.inodes?.size).toBe(1);
    expect(resolvePid({ port: first.port }, { ...ctx('w'), sockets, lastPid: pid })).toBe(pid);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    expect(() => resolvePid({ port: first.port }, { ...ctx('w'), sockets, lastPid: pid })).toThrow(
      `agent w: nothing listens on port ${first.port}`,
    );
    expect(sockets.inodes?.size).toBe(0);

    // a restart: another process on the same port
    const code = `require('node:net').createServer().listen(${first.port}, '127.0.0.1', () => console.log('up')); setInterval(() => {}, 1000);`;
    const next = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    children.push(next);
    await once(next.stdout!, 'data');
    expect(resolvePid({ port: first.port }, { ...ctx('w'), sockets, lastPid: pid })).toBe(next.pid);
  });
});

describe('pid by command-line match', () => {
  it('finds the one matching process, never the runner above us that quotes the pattern, and refuses two', async () => {
    const tag = `pid-match-${process.pid}-${Date.now()}`;
    const one = await listener('127.0.0.1', tag);
    expect(resolvePid({ match: tag }, ctx('m'))).toBe(one.child.pid);
    const two = await listener('127.0.0.1', tag);
    expect(() => resolvePid({ match: tag }, ctx('m'))).toThrow(/agent m: match ".*" finds 2 processes/);
    expect(resolvePid({ match: tag }, { ...ctx('m'), exclude: new Set([one.child.pid!]) })).toBe(two.child.pid);
  });

  it('skips the processes above the arena: its chain of parents up to init', async () => {
    const { child } = await listener('127.0.0.1');
    const above = ancestorsOf(child.pid!);
    expect(above.has(process.pid)).toBe(true);
    expect(above.has(process.ppid)).toBe(true);
    expect(above.has(1)).toBe(true);
    expect(above.has(child.pid!)).toBe(false);
  });
});

/** the refusal resolvePid throws, checked to be the typed one with the hint */
function refusal(run: () => unknown): RuntimeError {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(RuntimeError);
  const err = caught as RuntimeError;
  expect(err.code).toBe('unsafe_pid');
  expect(err.exitCode).toBe(3);
  expect(err.hint).toContain('setsid');
  return err;
}

describe('every pid source refuses the arena, what is above it, and its group and session', () => {
  // here the arena is this test process: its parent (the test runner) and every process above it,
  // and the children it starts without a session of their own, are never an agent
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const pidFile = (pid: number) => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-pid-safety-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'agent.pid'), `${pid}\n`);
    return join(dir, 'agent.pid');
  };

  it('a pid file naming the arena, its parent, a grandparent, or a child in its own group', async () => {
    const file = pidFile(process.pid);
    const self = refusal(() => resolvePid({ file }, ctx('self'))).message;
    expect(self).toContain(`agent self: pid file ${file} names pid ${process.pid} (`);
    expect(self).toMatch(/\), which is the arena itself; refusing to signal it$/);
    // the command line is shown on one short line, whatever the process's argv holds (a CI
    // runner's `bash -c` script spans many lines)
    expect(self).not.toContain('\n');
    expect(self).toContain(readCmdline(process.pid)!.replace(/\s+/g, ' ').trim().slice(0, 40));
    for (const above of [process.ppid, ...[...ancestorsOf(process.ppid)].filter((p) => p > 1)]) {
      expect(refusal(() => resolvePid({ file: pidFile(above) }, ctx('up'))).message).toMatch(
        new RegExp(
          `agent up: pid file .* names pid ${above} .*, which is above the arena \\(its parent shell or runner\\)`,
        ),
      );
    }
    expect(() => resolvePid({ file: pidFile(1) }, ctx('init'))).toThrow('does not hold a process id');
    const sibling = await listener('127.0.0.1', 'pid-group', true);
    expect(refusal(() => resolvePid({ file: pidFile(sibling.child.pid!) }, ctx('g'))).message).toMatch(
      /which is in the arena's own process group \d+/,
    );
    // its own session: fine
    const own = await listener('127.0.0.1');
    expect(resolvePid({ file: pidFile(own.child.pid!) }, ctx('own'))).toBe(own.child.pid);
  });

  it('a port the arena itself, or a child in its group, listens on', async () => {
    const server = createServer();
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    expect(refusal(() => resolvePid({ port }, ctx('p'))).message).toMatch(
      new RegExp(`agent p: port ${port} names pid ${process.pid} .*, which is the arena itself`),
    );
    const sibling = await listener('127.0.0.1', 'pid-port-group', true);
    expect(refusal(() => resolvePid({ port: sibling.port }, ctx('q'))).message).toMatch(
      new RegExp(`agent q: port ${sibling.port} names pid ${sibling.child.pid} .*in the arena's own process group`),
    );
  });

  it('a match beside a runner that quotes it still finds the agent in its own session', async () => {
    const tag = `pid-quoted-${process.pid}-${Date.now()}`;
    const one = await listener('127.0.0.1', tag);
    // a child of ours in our group whose command line also has the tag: skipped, not chosen
    const quoting = await listener('127.0.0.1', tag, true);
    expect(quoting.child.pid).not.toBe(one.child.pid);
    expect(resolvePid({ match: tag }, ctx('m'))).toBe(one.child.pid);
  });
});
