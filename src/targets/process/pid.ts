/**
 * Which process is an agent right now. Resolved afresh for every fault and
 * every status look: under a supervisor the pid changes with each restart.
 * From a pid file, from the port the agent listens on, or from its command
 * line. Every failure names the agent and the cause.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RuntimeError } from '../../shared/errors.js';
import { arenaFamily, type ArenaFamily, UNSAFE_HINT, unsafeReason } from './guard.js';
import { holdsSocket, isAlive, isAncestor, listeningInodes, listPids, processTable } from './proc.js';
import { readCmdline, readStat, type ProcInfo } from '../../shared/proc.js';
import type { PidSpec } from './spec.js';

export interface ResolveContext {
  agentId: string;
  baseDir: string;
  /** pids never to be taken for an agent: the arena itself, its watchdog */
  exclude?: ReadonlySet<number>;
  /** the last pid found, tried first (a port scan over every process is the slow path) */
  lastPid?: number;
  /**
   * port specs: the listening sockets (inodes) lastPid held when it was found, which this call
   * updates. Kept by the caller from call to call, so that while the same process still holds one
   * of them nothing is read from /proc/net.
   */
  sockets?: { inodes?: ReadonlySet<string> };
}

/**
 * The agent's pid by its spec. A pid that is the arena, its watchdog, above it, or in its process
 * group or session is refused (RuntimeError `unsafe_pid`) whichever source named it: nothing is
 * ever signalled on its word.
 */
export function resolvePid(spec: PidSpec, ctx: ResolveContext): number {
  const family = arenaFamily(ctx.exclude);
  const pid =
    'file' in spec
      ? fromFile(spec.file, ctx)
      : 'port' in spec
        ? fromPort(spec.port, ctx, family)
        : fromMatch(spec.match, ctx, family);
  // every source, the fast paths included, answers through this one check
  const why = unsafeReason(pid, readStat(pid), family);
  if (why) throw unsafe(ctx, pidSource(spec), [{ pid, why }]);
  return pid;
}

function unsafe(ctx: ResolveContext, source: string, refused: { pid: number; why: string }[]): RuntimeError {
  const listed = refused
    .slice(0, 5)
    .map(({ pid, why }) => `pid ${pid} (${shortCommand(pid)}), which is ${why}`)
    .join('; ');
  return new RuntimeError(`agent ${ctx.agentId}: ${source} names ${listed}; refusing to signal it`, {
    code: 'unsafe_pid',
    hint: UNSAFE_HINT,
  });
}

/** a process's command line on one short line: a runner's `bash -c` script can span many */
function shortCommand(pid: number): string {
  const line = (readCmdline(pid) ?? '?').replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** the candidates the arena may signal; when none is left but some were refused, the refusal with its reasons */
function safeOnly(candidates: number[], family: ArenaFamily, ctx: ResolveContext, source: string): number[] {
  const refused: { pid: number; why: string }[] = [];
  const safe = candidates.filter((pid) => {
    const why = unsafeReason(pid, readStat(pid), family);
    if (why) refused.push({ pid, why });
    return why === undefined;
  });
  if (safe.length === 0 && refused.length > 0) throw unsafe(ctx, source, refused);
  return safe;
}

/** a short text saying where the pid comes from, for messages and `describe` */
export function pidSource(spec: PidSpec): string {
  if ('file' in spec) return `pid file ${spec.file}`;
  if ('port' in spec) return `port ${spec.port}`;
  return `match ${JSON.stringify(spec.match)}`;
}

function fromFile(file: string, ctx: ResolveContext): number {
  const path = resolve(ctx.baseDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new RuntimeError(
      `agent ${ctx.agentId}: pid file ${path} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`,
      { code: 'pid_not_found' },
    );
  }
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed) || Number(trimmed) <= 1) {
    throw new RuntimeError(
      `agent ${ctx.agentId}: pid file ${path} does not hold a process id (found ${JSON.stringify(trimmed.slice(0, 40))})`,
      { code: 'pid_not_found' },
    );
  }
  const pid = Number(trimmed);
  if (!isAlive(pid))
    throw new RuntimeError(`agent ${ctx.agentId}: pid file ${path} names pid ${pid}, which is not running`, {
      code: 'pid_not_found',
    });
  return pid;
}

function fromPort(port: number, ctx: ResolveContext, family: ArenaFamily): number {
  // a listening socket keeps its port until it is closed, and an inode names one socket while it
  // lives: a process still holding one it listened on is still the one listening on the port
  const known = ctx.sockets?.inodes;
  if (ctx.lastPid !== undefined && known && isAlive(ctx.lastPid) && holdsSocket(ctx.lastPid, known)) return ctx.lastPid;
  const inodes = listeningInodes(port);
  if (ctx.sockets) ctx.sockets.inodes = inodes;
  if (inodes.size === 0)
    throw new RuntimeError(`agent ${ctx.agentId}: nothing listens on port ${port}`, { code: 'pid_not_found' });
  if (ctx.lastPid !== undefined && isAlive(ctx.lastPid) && holdsSocket(ctx.lastPid, inodes)) return ctx.lastPid;
  const table = processTable();
  const holders = safeOnly(
    [...table.keys()].filter((pid) => holdsSocket(pid, inodes)),
    family,
    ctx,
    `port ${port}`,
  );
  if (holders.length === 0) {
    throw new RuntimeError(`agent ${ctx.agentId}: port ${port} is listened on by a process this user cannot see`, {
      code: 'pid_not_found',
    });
  }
  return pickOne(holders, table, ctx, `port ${port}`);
}

function fromMatch(pattern: string, ctx: ResolveContext, family: ArenaFamily): number {
  const source = `match ${JSON.stringify(pattern)}`;
  const found: number[] = [];
  for (const pid of listPids()) {
    const cmdline = readCmdline(pid);
    // a zombie's command line is empty: it matches nothing
    if (cmdline !== undefined && matchesWords(cmdline, pattern)) found.push(pid);
  }
  // a runner above the arena whose command line quotes the pattern is skipped when the agent is found
  // besides it; when only the arena's own family matches, the refusal says so
  const matches = safeOnly(found, family, ctx, source);
  if (matches.length === 0)
    throw new RuntimeError(
      `agent ${ctx.agentId}: no running process's command line matches ${JSON.stringify(pattern)}`,
      { code: 'pid_not_found' },
    );
  // the whole process table only when there is more than one to choose from
  return matches.length === 1 ? matches[0]! : pickOne(matches, processTable(), ctx, source);
}

/**
 * The pattern occurs in the command line and ends at a word end, so
 * "worker.js --id 1" does not also find "worker.js --id 10".
 */
export function matchesWords(cmdline: string, pattern: string): boolean {
  let from = 0;
  for (;;) {
    const at = cmdline.indexOf(pattern, from);
    if (at < 0) return false;
    const next = cmdline[at + pattern.length];
    if (next === undefined || next === ' ') return true;
    from = at + 1;
  }
}

/**
 * One process among several candidates: a wrapper and what it runs (sh -c
 * node …, a forked child holding an inherited socket) collapse into the
 * topmost, whose descendants every signal reaches anyway. Two unrelated
 * processes are ambiguous and refused rather than guessed.
 */
function pickOne(candidates: number[], table: Map<number, ProcInfo>, ctx: ResolveContext, what: string): number {
  const tops = candidates.filter((pid) => !candidates.some((other) => other !== pid && isAncestor(other, pid, table)));
  if (tops.length === 1) return tops[0]!;
  const listed = tops
    .slice(0, 5)
    .map((pid) => `${pid} (${shortCommand(pid)})`)
    .join(', ');
  throw new RuntimeError(
    `agent ${ctx.agentId}: ${what} finds ${tops.length} processes: ${listed}; make it name exactly one`,
    { code: 'pid_ambiguous' },
  );
}
