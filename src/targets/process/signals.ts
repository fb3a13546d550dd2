/**
 * Signals to an agent's process and everything below it. Its process group is
 * included only when the agent leads that group: under pm2 or a hand-written
 * supervisor the workers often share the supervisor's group, and signalling
 * that group would take the supervisor down with them.
 */
import { descendants, isAncestor, processTable, type ProcInfo } from './proc.js';

export type TreeSignal = 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM';

/** The pids a signal to agent `pid` reaches: itself, its descendants, and its group if it leads one. */
export function agentTree(
  pid: number,
  table: Map<number, ProcInfo> = processTable(),
  exclude: ReadonlySet<number> = new Set(),
): number[] {
  const pids = descendants(pid, table);
  const self = table.get(pid);
  if (self && self.pgid === pid) {
    for (const info of table.values()) if (info.pgid === pid && !pids.includes(info.pid)) pids.push(info.pid);
  }
  // never the arena itself or anything above it, whatever the tree says
  const me = process.pid;
  return pids.filter((p) => p !== me && !exclude.has(p) && !isAncestor(p, me, table));
}

/** Sends `signal` to each pid (parents first); returns the pids that received it. */
export function signalPids(pids: readonly number[], signal: TreeSignal): number[] {
  const sent: number[] = [];
  for (const pid of pids) {
    // pid <= 1 would mean our own group or every process: never
    if (!Number.isInteger(pid) || pid <= 1) continue;
    try {
      process.kill(pid, signal);
      sent.push(pid);
    } catch {
      // gone between the table read and the signal: nothing to do
    }
  }
  return sent;
}
