/**
 * The live console: one dashboard poll and one event stream feed every
 * panel. Events also nudge the dashboard, so a killed leader shows its
 * successor without waiting for the next poll.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi } from '../api.js';
import { openEventStream, type StreamStatus } from '../event-stream.js';
import { usePoll } from '../use-poll.js';
import type { Dashboard, Recovery, TimelineItem } from '../types.js';
import { AgentsPanel } from './AgentsPanel.js';
import { FaultsPanel } from './FaultsPanel.js';
import { ScorePanel } from './ScorePanel.js';
import { InjectPanel } from './InjectPanel.js';
import { SurvivalPanel } from './SurvivalPanel.js';
import { ScenarioPanel } from './ScenarioPanel.js';
import { TimelinePanel } from './TimelinePanel.js';
import { DiagnosticsPanel } from './DiagnosticsPanel.js';
import { RegressPanel } from './RegressPanel.js';
import { ShrinkPanel } from './ShrinkPanel.js';
import { TrialsPanel } from './TrialsPanel.js';

/** the timeline keeps this many events on screen */
const TIMELINE_CAP = 500;

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  unauthorized: 'key refused',
};

export function Console(props: { apiKey: string; onUnauthorized(): void; onSignOut(): void }) {
  const onUnauthorized = useRef(props.onUnauthorized);
  onUnauthorized.current = props.onUnauthorized;
  const api = useMemo(() => createApi(props.apiKey, () => onUnauthorized.current()), [props.apiKey]);
  const dashboard = usePoll(() => api.get<Dashboard>('/arena/dashboard'), 1000);
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [timeline, setTimeline] = useState<TimelineItem[]>([]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [failures, setFailures] = useState(0);
  const [recoveries, setRecoveries] = useState<Recovery[]>([]);
  const refreshDashboard = useRef(dashboard.refresh);
  refreshDashboard.current = dashboard.refresh;

  useEffect(() => {
    const handle = openEventStream({
      path: '/arena/stream',
      key: props.apiKey,
      onStatus(s) {
        setStatus(s);
        if (s === 'unauthorized') onUnauthorized.current();
      },
      onEvent(e) {
        const frame = (e.data ?? {}) as { type?: string; at?: string; data?: unknown };
        const item: TimelineItem = {
          id: e.id,
          type: frame.type ?? e.event,
          at: frame.at ?? new Date().toISOString(),
          data: frame.data,
        };
        setTimeline((items) =>
          items.length >= TIMELINE_CAP ? [...items.slice(items.length - TIMELINE_CAP + 1), item] : [...items, item],
        );
        if (item.type === 'arena.action.failed') setFailures((n) => n + 1);
        refreshDashboard.current();
      },
      onNotice(n) {
        const data = (n.data ?? {}) as { detail?: string; reason?: string };
        if (n.event === 'reset')
          setNotice(
            `Some events were not replayed: ${data.detail ?? data.reason ?? 'the server no longer holds them'}`,
          );
        else if (n.event === 'shutdown') setNotice(`The server is shutting down: ${data.reason ?? ''}`);
        else if (n.event === 'ready') setNotice(undefined);
      },
    });
    return () => handle.close();
  }, [props.apiKey]);

  const d = dashboard.data;
  return (
    <div class="console">
      <header class="top">
        <div class="topbar">
          <h1>Chaos Arena</h1>
          <span class="target" title="target">
            {d ? d.target : '…'}
          </span>
          <span class={`pill pill-${status}`} data-testid="connection" role="status">
            {STATUS_TEXT[status]}
          </span>
          <button class="link" type="button" onClick={props.onSignOut}>
            Forget key
          </button>
        </div>
        {status === 'reconnecting' && (
          <p class="notice banner" role="status" data-testid="reconnecting">
            Connection to the arena lost: reconnecting. The timeline resumes where it stopped.
          </p>
        )}
        {notice && <p class="notice banner">{notice}</p>}
      </header>
      <main class="grid">
        <AgentsPanel agents={d?.agents} />
        <FaultsPanel faults={d?.active_faults} nowMs={d?.now_ms} fetchedAt={dashboard.at} />
        <ScorePanel api={api} onSnapshot={(s) => setRecoveries(s.recoveries ?? [])} />
        <InjectPanel api={api} dashboard={d} onDone={dashboard.refresh} />
        <SurvivalPanel api={api} running={d?.survival.running ?? false} />
        <ScenarioPanel api={api} />
        <TimelinePanel items={timeline} runs={d?.runs ?? []} recoveries={recoveries} />
        <DiagnosticsPanel api={api} failures={failures} />
        <RegressPanel api={api} />
        <TrialsPanel api={api} />
        <ShrinkPanel api={api} />
      </main>
    </div>
  );
}
