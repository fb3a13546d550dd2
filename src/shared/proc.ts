/**
 * One process as Linux's /proc tells it: its stat line (parent, group, state, start time) and its
 * command line. The start time with the pid names one process even after the pid is reused, which is
 * what lets the arena signal a pid it recorded earlier without hitting a stranger.
 */
import { readFileSync } from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** session id */
  sid: number;
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
    sid: Number(fields[3]),
    startTime: Number(fields[19]),
  };
}

export function readCmdline(pid: number): string | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.replace(/\0+$/, '').split('\0').join(' ');
  } catch {
    return undefined;
  }
}
