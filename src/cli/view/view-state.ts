/**
 * What the live view shows, folded from RunEvents. Pure: the store batches
 * events into snapshots; the React components only read them.
 */
import type { ActiveFault, AgentInfo } from '../../arena/providers.js';
import type { LiveScore, RunEvent, RunPhase, RunStatus } from '../../arena/report.js';
import { stoppedByText } from '../../arena/safety/watch.js';

export type Tone = 'ok' | 'bad' | 'info';

export interface FeedItem {
  id: number;
  at_ms: number;
  text: string;
  tone: Tone;
}

export interface FaultView {
  id: string;
  kind: string;
  target: string;
  /** ms left when known; undefined = until reverted */
  left_ms?: number;
}

export interface ViewState {
  kind: 'scenario' | 'survival' | null;
  name: string;
  seed: number | null;
  phase: RunPhase | null;
  progress: number;
  at_ms: number;
  agents: AgentInfo[];
  faults: FaultView[];
  live: LiveScore | null;
  actions: { ok: number; failed: number };
  /** interrupted: the run stopped before they recovered or reached their deadline (not counted) */
  recoveries: { recovered: number; missed: number; interrupted: number };
  /** finished lines: each is printed once, above the live region */
  feed: FeedItem[];
  status: RunStatus | null;
  /** why it ended early, once it has: the stop condition that tripped, or who stopped it (an emergency stop) */
  ended_why: string | null;
}

export function initialViewState(): ViewState {
  return {
    kind: null,
    name: '',
    seed: null,
    phase: null,
    progress: 0,
    at_ms: 0,
    agents: [],
    faults: [],
    live: null,
    actions: { ok: 0, failed: 0 },
    recoveries: { recovered: 0, missed: 0, interrupted: 0 },
    feed: [],
    status: null,
    ended_why: null,
  };
}

/** a stop condition as "stopped by CONDITION: REASON", an emergency stop (or Ctrl-C) as what the report says */
function endedWhy(event: Extract<RunEvent, { type: 'run.finished' }>): string | null {
  if (event.stopped_by) return `stopped by ${event.stopped_by.condition}: ${event.stopped_by.reason}`;
  if (event.status === 'stopped' || event.status === 'interrupted') return event.error ?? null;
  return null;
}

/**
 * Folds events into a mutable draft (cheap per event); `firstSeen` remembers
 * when each fault first showed up, on the run's own time axis, so time left is
 * computed without assuming the target's clock equals the run's.
 */
export class ViewReducer {
  private state = initialViewState();
  private nextId = 0;
  private readonly firstSeen = new Map<string, number>();
  private rawFaults: ActiveFault[] = [];

  apply(event: RunEvent): void {
    const s = this.state;
    s.at_ms = Math.max(s.at_ms, event.at_ms);
    switch (event.type) {
      case 'run.started':
        s.kind = event.kind;
        s.name = event.name;
        s.seed = event.seed;
        this.addLine(event.at_ms, `${runTitle(event.kind, event.name)} started (seed ${event.seed})`, 'info');
        break;
      case 'phase':
        s.phase = event.phase;
        break;
      case 'action': {
        const r = event.result;
        const target = r.action.target_id ? ` ${r.action.target_id}` : '';
        if (r.success) s.actions.ok++;
        else s.actions.failed++;
        const text = r.success
          ? `${event.label}: ${r.action.type}${target}`
          : `${event.label}: ${r.action.type}${target} failed: ${r.error ?? 'unknown error'}`;
        this.addLine(event.at_ms, text, r.success ? 'info' : 'bad');
        break;
      }
      case 'fault.reverted':
        this.rawFaults = this.rawFaults.filter((f) => f.id !== event.fault.id);
        this.addLine(event.at_ms, `reverted ${event.fault.kind} on ${event.fault.target}`, 'info');
        break;
      case 'recovery': {
        const r = event.recovery;
        if (r.interrupted) {
          s.recoveries.interrupted++;
          this.addLine(event.at_ms, `interrupted before ${r.type} on ${r.target} recovered (not counted)`, 'info');
          break;
        }
        if (r.recovered) s.recoveries.recovered++;
        else s.recoveries.missed++;
        this.addLine(
          event.at_ms,
          r.recovered
            ? `recovered from ${r.type} on ${r.target} in ${r.recovery_ms}ms`
            : `NOT recovered from ${r.type} on ${r.target}`,
          r.recovered ? 'ok' : 'bad',
        );
        break;
      }
      case 'snapshot':
        s.agents = event.agents;
        s.live = event.live;
        s.progress = event.progress;
        this.rawFaults = event.faults;
        for (const f of event.faults) if (!this.firstSeen.has(f.id)) this.firstSeen.set(f.id, event.at_ms);
        break;
      case 'run.finished':
        s.status = event.status;
        s.phase = 'done';
        // the final score, consistency included: the last frame shows what the final table shows
        if (event.score) s.live = event.score;
        s.progress =
          event.status === 'passed' || event.status === 'failed' || event.status === 'inconclusive' ? 1 : s.progress;
        s.ended_why = endedWhy(event);
        if (event.stopped_by) this.addLine(event.at_ms, `${stoppedByText(event.stopped_by)}; faults reverted`, 'bad');
        else if (s.ended_why) this.addLine(event.at_ms, s.ended_why, 'bad');
        this.addLine(event.at_ms, `finished: ${event.status}`, event.status === 'passed' ? 'ok' : 'bad');
        break;
    }
  }

  /** a fresh immutable snapshot for React */
  snapshot(): ViewState {
    const s = this.state;
    const faults = this.rawFaults.map((f): FaultView => {
      const view: FaultView = { id: f.id, kind: f.kind, target: f.target };
      if (f.ends_at_ms !== undefined) {
        const seen = this.firstSeen.get(f.id) ?? s.at_ms;
        view.left_ms = Math.max(0, f.ends_at_ms - f.started_at_ms - (s.at_ms - seen));
      }
      return view;
    });
    return {
      ...s,
      agents: [...s.agents],
      faults,
      actions: { ...s.actions },
      recoveries: { ...s.recoveries },
      feed: [...s.feed],
    };
  }

  /** every finished line so far (the live array: lines are only ever appended) */
  feed(): readonly FeedItem[] {
    return this.state.feed;
  }

  private addLine(at_ms: number, text: string, tone: Tone): void {
    this.state.feed.push({ id: this.nextId++, at_ms, text, tone });
  }
}

/** "scenario leader-failover", "survival" (not "survival survival") */
export function runTitle(kind: string | null, name: string): string {
  const k = kind ?? 'run';
  return name && name !== k ? `${k} ${name}` : k;
}
