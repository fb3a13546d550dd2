/** Small text helpers shared by the panels. */

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return `${m}m${String(s).padStart(2, '0')}s`;
}

export function formatNumber(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '–' : value.toFixed(digits);
}

export function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString([], { hour12: false });
}

interface ResultLike {
  success?: boolean;
  error?: string;
  action?: { type?: string; target_id?: string; source_id?: string };
  metadata?: Record<string, unknown>;
}

/** "kill_leader → killed agent-1", "slow_agent agent-2 for 3.0 s", "kill_agent nope failed: unknown agent" */
export function describeResult(result: ResultLike): string {
  const a = result.action ?? {};
  const m = result.metadata ?? {};
  const target = a.type === 'remove_edge' ? `${a.source_id ?? '?'}→${a.target_id ?? '?'}` : a.target_id || '';
  let text = `${a.type ?? 'action'}${target ? ` ${target}` : ''}`;
  if (result.success === false) return `${text} failed: ${result.error ?? 'no reason given'}`;
  if (typeof m.killed_leader_id === 'string') text += ` → killed leader ${m.killed_leader_id}`;
  else if (typeof m.killed_orchestrator_id === 'string') text += ` → killed orchestrator ${m.killed_orchestrator_id}`;
  if (a.type === 'tool_fault' && typeof m.mode === 'string')
    text += ` (${m.mode}${typeof m.tool === 'string' && m.tool !== '*' ? ` on ${m.tool}` : ''})`;
  if (typeof m.duration_ms === 'number') text += ` for ${formatMs(m.duration_ms)}`;
  if (Array.isArray(m.shared_with) && m.shared_with.length) text += ` (shared with ${m.shared_with.join(', ')})`;
  return text;
}

/** what a run's report or summary says about how it ended early */
export interface RunEnd {
  status?: string;
  stopped_by?: { condition?: string; reason?: string };
  error?: string;
}

/**
 * Why a run ended early (DESIGN §16), or undefined when it did not: the stop condition that tripped
 * and what it measured, or who pressed the emergency stop (the report's `error` names them).
 */
export function endedWhy(run: RunEnd): string | undefined {
  if (run.stopped_by)
    return `stopped by ${run.stopped_by.condition ?? 'a stop condition'}: ${run.stopped_by.reason ?? ''}; faults reverted`;
  if ((run.status === 'stopped' || run.status === 'interrupted') && run.error) return run.error;
  return undefined;
}

/** one line for any arena event on the timeline */
export function describeEvent(type: string, data: unknown): { text: string; tone: 'ok' | 'bad' | 'info' } {
  const d = (data ?? {}) as ResultLike & Record<string, unknown>;
  if (type === 'arena.action.executed') return { text: describeResult(d), tone: 'ok' };
  if (type === 'arena.action.failed') return { text: describeResult(d), tone: 'bad' };
  // a run ended early (DESIGN §16): say which condition or who stopped it, not a dump of the event
  const why = type === 'run.finished' ? endedWhy(d as RunEnd) : undefined;
  if (why) return { text: why, tone: 'bad' };
  const keys = Object.keys(d).slice(0, 4);
  const detail = keys.map((k) => `${k}=${typeof d[k] === 'object' ? JSON.stringify(d[k]) : String(d[k])}`).join(' ');
  return { text: `${type.replace(/^arena\./, '')}${detail ? ` ${detail}` : ''}`, tone: 'info' };
}
