/**
 * Signals to an agent's process and everything below it. Its process group is
 * included only when the agent leads that group: under pm2 or a hand-written
 * supervisor the workers often share the supervisor's group, and signalling
 * that group would take the supervisor down with them.
 */
import { arenaFamily, type ArenaFamily, unsafeReason } from './guard.js';
import { descendants, processTable } from './proc.js';
import type { ProcInfo } from '../../shared/proc.js';

export type TreeSignal = 'SIGKILL' | 'SIGSTOP' | 'SIGCONT' | 'SIGTERM';

/**
 * The pids a signal to agent `pid` reaches: itself, its descendants, and its group if it leads one;
 * never the arena, its helpers, anything above it or in its group or session, whatever the tree says.
 */
export function agentTree(
  pid: number,
  table: Map<number, ProcInfo> = processTable(),
  exclude: ReadonlySet<number> = new Set(),
  family: ArenaFamily = arenaFamily(exclude),
): number[] {
  const pids = descendants(pid, table);
  const self = table.get(pid);
  if (self && self.pgid === pid) {
    for (const info of table.values()) if (info.pgid === pid && !pids.includes(info.pid)) pids.push(info.pid);
  }
  return pids.filter((p) => !exclude.has(p) && unsafeReason(p, table.get(p), family) === undefined);
}

export interface SignalResult {
  /** the pids that received it */
  sent: number[];
  /** pids the kernel refused to signal (EPERM: not ours), with the reason */
  refused: { pid: number; reason: string }[];
}

/** Sends `signal` to each pid (parents first). A pid gone meanwhile is neither sent nor refused. */
export function signalPids(pids: readonly number[], signal: TreeSignal): SignalResult {
  const result: SignalResult = { sent: [], refused: [] };
  for (const pid of pids) {
    // pid <= 1 would mean our own group or every process: never
    if (!Number.isInteger(pid) || pid <= 1) continue;
    try {
      process.kill(pid, signal);
      result.sent.push(pid);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ESRCH: gone between the table read and the signal, nothing to do
      if (code !== 'ESRCH') result.refused.push({ pid, reason: code ?? String(err) });
    }
  }
  return result;
}
