/**
 * The processes a process target must never signal, whatever a pid source
 * says: the arena itself, its own helpers (the watchdog), every process above
 * it (the shell or runner that started it, up to init), and every process in
 * its process group or session (the other parts of its pipeline, the shell's
 * other jobs). A pid file holding the arena's parent shell once got that
 * shell's other children SIGKILLed; each pid source now refuses such a pid
 * with the reason, before anything is sent.
 */
import { ancestorsOf } from './proc.js';
import { readStat, type ProcInfo } from '../../shared/proc.js';

export interface ArenaFamily {
  self: number;
  /** the arena's parent, grandparent, … up to init */
  ancestors: ReadonlySet<number>;
  pgid: number;
  sid: number;
  /** the arena's own helper processes (its watchdog) */
  helpers: ReadonlySet<number>;
}

/** The arena's family as /proc says now (a parent that dies re-parents us, so it is read afresh). */
export function arenaFamily(helpers: ReadonlySet<number> = new Set(), self = process.pid): ArenaFamily {
  const me = readStat(self);
  return { self, ancestors: ancestorsOf(self), pgid: me?.pgid ?? 0, sid: me?.sid ?? 0, helpers };
}

/**
 * Why `pid` must not be signalled as an agent, or undefined when it may be. A group or session id
 * of 0 (a process entered from outside the pid namespace) is shared with nothing.
 */
export function unsafeReason(pid: number, info: ProcInfo | undefined, family: ArenaFamily): string | undefined {
  if (pid === family.self) return 'the arena itself';
  if (family.helpers.has(pid)) return "one of the arena's own helper processes (its watchdog)";
  if (pid <= 1) return 'init (pid 1)';
  if (family.ancestors.has(pid))
    return "above the arena (its parent shell or runner): signalling it would reach the arena's own pipeline";
  if (!info) return undefined;
  if (family.pgid > 0 && info.pgid === family.pgid) return `in the arena's own process group ${family.pgid}`;
  if (family.sid > 0 && info.sid === family.sid)
    return `in the arena's own session ${family.sid} (started from the same terminal or script as the arena)`;
  return undefined;
}

/** the hint every refusal carries: how to run an agent so that the arena may signal it */
export const UNSAFE_HINT =
  "run the agents in their own session (the target's start: command does this; by hand: setsid node worker.js), and check that the pid source names the agent's own process";
