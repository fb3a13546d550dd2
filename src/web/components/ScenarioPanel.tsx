/**
 * Write or open a scenario, validate it with the server's validator (the
 * CLI's, with line:column), run it on the served target and download the
 * run's JSON report exactly as the server returned it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeFailure, type Api } from '../api.js';
import { downloadJson, reportFileName } from '../download.js';
import { formatMs, formatNumber } from '../format.js';
import { ScenarioEditor, type Problem } from './ScenarioEditor.js';

const EXAMPLE = `name: console-leader-kill
description: Kill the leader once; a new one must be elected
config:
  warmup: 1s
  cooldown: 2s
actions:
  - label: kill
    delay: 1s
    action: { type: kill_leader }
`;

interface Report {
  name?: string;
  seed?: number;
  status?: string;
  inconclusive_why?: string;
  started_at?: string;
  duration_ms?: number;
  /** score, grade and availability are null when the run measured no request */
  score?: {
    score: number | null;
    grade: string | null;
    availability: number | null;
    availability_why?: string;
    recovery: number;
    consistency: number;
  };
}

export function ScenarioPanel(props: { api: Api }) {
  const [text, setText] = useState(EXAMPLE);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [verdict, setVerdict] = useState<{ ok: boolean; text: string } | undefined>(undefined);
  const [seed, setSeed] = useState('');
  const [scale, setScale] = useState('1');
  const [running, setRunning] = useState<AbortController | undefined>(undefined);
  const [report, setReport] = useState<Report | undefined>(undefined);
  const latest = useRef(0);

  const validate = async (source: string): Promise<boolean> => {
    const ticket = ++latest.current;
    try {
      const reply = await props.api.post<{ valid: boolean; errors: Problem[] }>('/arena/scenario/validate', source);
      if (ticket !== latest.current) return false;
      setProblems(reply.body.errors ?? []);
      const n = reply.body.errors?.length ?? 0;
      setVerdict(
        reply.body.valid
          ? { ok: true, text: 'Valid scenario.' }
          : { ok: false, text: `${n} problem${n === 1 ? '' : 's'}: fix ${n === 1 ? 'it' : 'them'} before running.` },
      );
      return reply.body.valid;
    } catch (err) {
      if (ticket === latest.current) setVerdict({ ok: false, text: describeFailure(err) });
      return false;
    }
  };

  // validate as the user types, once they pause
  useEffect(() => {
    if (!text.trim()) return;
    const timer = setTimeout(() => void validate(text), 600);
    return () => clearTimeout(timer);
  }, [text]);

  const open = async (e: Event) => {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    if (file) setText(await file.text());
    // opening the same file again (after editing it on disk) must fire a change too
    input.value = '';
  };

  const run = async () => {
    if (!(await validate(text))) return;
    const query = new URLSearchParams();
    if (seed.trim()) {
      if (!/^\d+$/.test(seed.trim()))
        return setVerdict({
          ok: false,
          text: "The seed must be a non-negative integer (or empty for the scenario's own).",
        });
      query.set('seed', seed.trim());
    }
    if (scale !== '1') query.set('time_scale', scale);
    const controller = new AbortController();
    setRunning(controller);
    setReport(undefined);
    setVerdict({ ok: true, text: 'Running… the timeline and the agents show it live.' });
    try {
      const reply = await props.api.post<Report>(
        `/arena/scenario/run${query.size ? `?${query}` : ''}`,
        text,
        controller.signal,
      );
      setReport(reply.body);
      const why = reply.body.inconclusive_why ? `: ${reply.body.inconclusive_why}` : '';
      setVerdict({ ok: reply.body.status === 'passed', text: `Run ${reply.body.status ?? 'finished'}${why}.` });
    } catch (err) {
      setVerdict({ ok: false, text: describeFailure(err) });
    } finally {
      setRunning(undefined);
    }
  };

  return (
    <section class="card wide" aria-labelledby="scenario-h">
      <h2 id="scenario-h">Scenario</h2>
      <ScenarioEditor value={text} problems={problems} onInput={setText} />
      <div class="form">
        <label class="file">
          open file
          <input type="file" accept=".yaml,.yml,.json" data-testid="scenario-file" onChange={open} />
        </label>
        <label>
          seed
          <input
            name="scenario-seed"
            inputMode="numeric"
            placeholder="scenario's"
            value={seed}
            onInput={(e) => setSeed((e.target as HTMLInputElement).value)}
          />
        </label>
        <label>
          speed
          <select name="time-scale" value={scale} onChange={(e) => setScale((e.target as HTMLSelectElement).value)}>
            <option value="1">real time</option>
            <option value="0.5">2× faster</option>
            <option value="0.25">4× faster</option>
          </select>
        </label>
        <button type="button" class="secondary" onClick={() => void validate(text)} disabled={!!running}>
          Validate
        </button>
        {running ? (
          <button type="button" onClick={() => running.abort()}>
            Cancel run
          </button>
        ) : (
          <button type="button" onClick={run} data-testid="scenario-run">
            Run
          </button>
        )}
      </div>
      {verdict && (
        <p class={verdict.ok ? 'ok' : 'error'} role={verdict.ok ? 'status' : 'alert'} data-testid="scenario-verdict">
          {verdict.text}
        </p>
      )}
      {report?.score && (
        <div class="report" data-testid="scenario-report">
          <span>
            {report.name} · {report.status} · seed {report.seed} · {formatMs(report.duration_ms ?? 0)}
          </span>
          <span class="big">
            score <strong data-testid="scenario-score">{formatNumber(report.score.score)}</strong>{' '}
            <small>{report.score.grade}</small>
          </span>
          <span>
            availability {formatNumber(report.score.availability)} · recovery {formatNumber(report.score.recovery)} ·
            consistency {formatNumber(report.score.consistency)}
          </span>
          <button
            type="button"
            class="link"
            data-testid="scenario-download"
            onClick={() => downloadJson(reportFileName(report.name ?? 'scenario', report.started_at), report)}
          >
            Download JSON report
          </button>
        </div>
      )}
    </section>
  );
}
