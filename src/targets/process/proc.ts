/**
 * The process table as Linux's /proc tells it: parent, process group, state
 * and command line of every process, and the trees below a pid. Read fresh on
 * every call: pids change under a supervisor, and a stale table would signal
 * the wrong process.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** R, S, D, T (stopped), t, Z (zombie), X … */
  state: string;
  /** clock ticks since boot: with the pid, identifies one process even if the pid is reused */
  startTime: number;
}

/** /proc/PID/stat of one process, or undefined when it does not exist (or is gone mid-read). */
export function readStat(pid: number): ProcInfo | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // the command name sits in parentheses and may itself contain spaces and ')'
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  return {
    pid,
    state: fields[0] ?? '?',
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    startTime: Number(fields[19]),
  };
}

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

export function readCmdline(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    return undefined;
  }
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

/** true when `ancestor` is a (grand)parent of `pid` */
export function isAncestor(ancestor: number, pid: number, table: Map<number, ProcInfo>): boolean {
  let current = table.get(pid)?.ppid;
  for (let hops = 0; current !== undefined && current > 0 && hops < 4096; hops++) {
    if (current === ancestor) return true;
    current = table.get(current)?.ppid;
  }
  return false;
}

/** the socket inodes of every listening TCP socket on `port` (IPv4 and IPv6) */
export function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      // st 0A = LISTEN
      if (cols[3] === '0A' && cols[1]!.endsWith(`:${hexPort}`)) inodes.add(cols[9]!);
    }
  }
  return inodes;
}

/** does process `pid` hold one of these socket inodes among its open files? */
export function holdsSocket(pid: number, inodes: Set<string>): boolean {
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
