/**
 * Survival: random faults at an interval for a duration, from a seed that
 * is shown so the run can be replayed (`arena survival --seed N`). Only one
 * runs at a time: a second start is refused by the server with 409, and the
 * page says so.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeFailure, type Api } from '../api.js';
import { downloadJson, reportFileName } from '../download.js';
import { endedWhy, formatMs, formatNumber, type RunEnd } from '../format.js';

interface SurvivalStatus {
  running: boolean;
  seed?: number;
  progress?: number;
  elapsed_ms?: number;
  actions_run?: number;
  live?: { score: number | null };
}

interface SurvivalReport extends RunEnd {
  seed: number;
  status: string;
  started_at?: string;
  actions_run?: number;
  score?: { score: number; grade: string };
}

export function SurvivalPanel(props: { api: Api; running: boolean }) {
  const [duration, setDuration] = useState('30s');
  const [interval, setInterval_] = useState('2s');
  const [seed, setSeed] = useState('');
  const [status, setStatus] = useState<SurvivalStatus | undefined>(undefined);
  const [report, setReport] = useState<SurvivalReport | undefined>(undefined);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const running = props.running || status?.running === true;

  useEffect(() => {
    if (!running) return;
    let stopped = false;
    const poll = async () => {
      try {
        const s = await props.api.get<SurvivalStatus>('/arena/survival/status');
        if (stopped) return;
        setStatus(s);
        if (!s.running) setReport(await props.api.get<SurvivalReport>('/arena/survival/report').catch(() => undefined));
      } catch {
        // shown by the connection pill
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [running, props.api]);

  const start = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { duration: duration.trim(), interval: interval.trim() };
    if (seed.trim()) {
      if (!/^\d+$/.test(seed.trim()))
        return setMessage({ ok: false, text: 'The seed must be a non-negative integer (or empty for a random one).' });
      body.seed = Number(seed.trim());
    }
    setBusy(true);
    try {
      const reply = await props.api.post<SurvivalStatus>('/arena/survival', body);
      setStatus(reply.body);
      setReport(undefined);
      setMessage({ ok: true, text: `Survival started with seed ${reply.body.seed ?? '?'}` });
    } catch (err) {
      setMessage({ ok: false, text: describeFailure(err) });
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    setBusy(true);
    try {
      const reply = await props.api.post<SurvivalReport>('/arena/survival/stop');
      setReport(reply.body);
      setStatus({ running: false, seed: reply.body.seed });
      setMessage({ ok: true, text: `Survival stopped (seed ${reply.body.seed})` });
    } catch (err) {
      setMessage({ ok: false, text: describeFailure(err) });
    } finally {
      setBusy(false);
    }
  };

  const download = async () => {
    try {
      const full = await props.api.get<SurvivalReport>('/arena/survival/report');
      downloadJson(reportFileName(`survival-${full.seed}`, full.started_at), full);
    } catch (err) {
      setMessage({ ok: false, text: describeFailure(err) });
    }
  };

  return (
    <section class="card" aria-labelledby="survival-h">
      <h2 id="survival-h">Survival</h2>
      <form class="form" onSubmit={start} data-testid="survival">
        <label>
          duration
          <input name="duration" value={duration} onInput={(e) => setDuration((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          interval
          <input name="interval" value={interval} onInput={(e) => setInterval_((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          seed
          <input
            name="seed"
            inputMode="numeric"
            placeholder="random"
            value={seed}
            onInput={(e) => setSeed((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Start
        </button>
        <button type="button" class="secondary" disabled={busy || !running} onClick={stop}>
          Stop
        </button>
      </form>
      {running && status && (
        <p class="muted" data-testid="survival-status">
          running · seed <strong data-testid="survival-seed">{status.seed ?? '?'}</strong> ·{' '}
          {Math.round((status.progress ?? 0) * 100)}% · {formatMs(status.elapsed_ms ?? 0)} · {status.actions_run ?? 0}{' '}
          faults · live score {formatNumber(status.live?.score)}
        </p>
      )}
      {!running && report && (
        <p data-testid="survival-report">
          last run: seed <strong>{report.seed}</strong> · {report.status} · score{' '}
          <strong>{formatNumber(report.score?.score)}</strong> {report.score?.grade ?? ''}{' '}
          <button type="button" class="link" onClick={download}>
            Download JSON report
          </button>
        </p>
      )}
      {!running && report && endedWhy(report) && (
        <p class="error" data-testid="survival-ended-why">
          {endedWhy(report)}
        </p>
      )}
      {message && (
        <p class={message.ok ? 'ok' : 'error'} role={message.ok ? 'status' : 'alert'} data-testid="survival-message">
          {message.text}
        </p>
      )}
    </section>
  );
}
