/**
 * Signals a child and every process below it. The SDK's stdio client
 * transport spawns the server without its own process group, and a server
 * started through `npx` or a shell runs as a grandchild: killing only the
 * direct child would leave the real server holding the pipes. The tree is
 * read from /proc before anything is signalled (a killed parent's children
 * are re-parented and could no longer be found); elsewhere only the child.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // the command name may hold spaces and parentheses: fields resume after the last ')'
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** Signals `pid` and its descendants; returns the pids signalled. Never called without a pid. */
export function killTree(pid: number, signal: NodeJS.Signals): number[] {
  const targets = [pid, ...descendants(pid)];
  const signalled: number[] = [];
  for (const target of targets) {
    try {
      process.kill(target, signal);
      signalled.push(target);
    } catch {
      // already gone
    }
  }
  return signalled;
}
