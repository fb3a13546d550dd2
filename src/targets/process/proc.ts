/**
 * The process table as Linux's /proc tells it: parent, process group, state
 * and command line of every process, and the trees below a pid. Read fresh on
 * every call: pids change under a supervisor, and a stale table would signal
 * the wrong process.
 */
import { closeSync, openSync, readdirSync, readlinkSync, readSync } from 'node:fs';
import { readStat, type ProcInfo } from '../../shared/proc.js';

/** alive = exists and is not a zombie (a zombie has already exited; only its parent's wait is missing) */
export function isAlive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

export function isStopped(pid: number): boolean {
  const state = readStat(pid)?.state;
  return state === 'T' || state === 't';
}

export function listPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const c = name.charCodeAt(0);
    if (c >= 48 && c <= 57) pids.push(Number(name));
  }
  return pids;
}

/** every live process's stat, read once */
export function processTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>();
  for (const pid of listPids()) {
    const stat = readStat(pid);
    if (stat && stat.state !== 'Z' && stat.state !== 'X') table.set(pid, stat);
  }
  return table;
}

/** pid and everything below it, parents before children */
export function descendants(root: number, table: Map<number, ProcInfo> = processTable()): number[] {
  const children = new Map<number, number[]>();
  for (const info of table.values()) {
    const list = children.get(info.ppid);
    if (list) list.push(info.pid);
    else children.set(info.ppid, [info.pid]);
  }
  const out: number[] = [];
  const queue = [root];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    if (pid === root || table.has(pid)) out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** the (grand)parents of `pid`, read up its chain of parents only */
export function ancestorsOf(pid: number): Set<number> {
  const above = new Set<number>();
  let current = readStat(pid)?.ppid;
  while (current !== undefined && current > 0 && !above.has(current) && above.size < 4096) {
    above.add(current);
    current = readStat(current)?.ppid;
  }
  return above;
}

/** true when `ancestor` is a (grand)parent of `pid` */
export function isAncestor(ancestor: number, pid: number, table: Map<number, ProcInfo>): boolean {
  let current = table.get(pid)?.ppid;
  for (let hops = 0; current !== undefined && current > 0 && hops < 4096; hops++) {
    if (current === ancestor) return true;
    current = table.get(current)?.ppid;
  }
  return false;
}

/**
 * The socket inodes of every listening TCP socket on `port` (IPv4 and IPv6). The kernel lists its
 * listening sockets first in /proc/net/tcp{,6} (its listening hash, then the established one), so the
 * read stops at the first line in another state. It used to read each file whole: on a host with
 * 6,000 sockets in TIME_WAIT, 12 ms of kernel time a read, and a process target re-resolves every
 * port-named agent several times a second (the example pm2 fleet's arena: 2.1 of its 3.2 CPU-s in
 * a 9 s run). Reading /proc/net/tcp6 still walks every socket when few of them are IPv6 ones: ~5 ms
 * a look beside thousands in TIME_WAIT, which pid.ts pays only after a restart or while nothing listens.
 */
export function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    forEachLine(file, (line) => {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) return true;
      // st 0A = LISTEN; the listeners have all been listed once another state shows up
      if (cols[3] !== '0A') return false;
      if (cols[1]!.endsWith(`:${hexPort}`)) inodes.add(cols[9]!);
      return true;
    });
  }
  return inodes;
}

/**
 * Each line of a /proc table after its header until `visit` returns false, read in chunks: the
 * kernel writes a /proc/net table as it is read, so what is not read costs nothing.
 */
export function forEachLine(file: string, visit: (line: string) => boolean): void {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return;
  }
  try {
    const chunk = Buffer.allocUnsafe(64 * 1024);
    let rest = '';
    let header = true;
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch {
        return; // gone or unreadable mid-way (as a whole read of it failing was): what was read stands
      }
      const lines = (rest + chunk.toString('latin1', 0, n)).split('\n');
      rest = n === 0 ? '' : lines.pop()!;
      for (const line of lines) {
        if (header) header = false;
        else if (line !== '' && !visit(line)) return;
      }
      if (n === 0) return;
    }
  } finally {
    closeSync(fd);
  }
}

/** does process `pid` hold one of these socket inodes among its open files? */
export function holdsSocket(pid: number, inodes: ReadonlySet<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    let link: string;
    try {
      link = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (link.startsWith('socket:[') && inodes.has(link.slice(8, -1))) return true;
  }
  return false;
}
