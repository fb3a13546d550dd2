/**
 * Trials: the `arena trials --store …` jobs recorded in the server's event
 * store, newest first. Per task and arm, trials done out of the plan, successes
 * and pass^k so far; the reliability surface (pass^k against k, one series per
 * `--intensity`) as a chart that fills in as blocks finish; once the run is
 * over, the figures of the report the command printed. Polls GET /arena/trials
 * once a second: trials run in their own process and write to the store.
 */
import type { Api } from '../api.js';
import { JobsPanel } from './JobsPanel.js';
import { clockTime, formatNumber } from '../format.js';
import type { TaskReport, TrialsJob, TrialsSurfaceSeries } from '../types.js';

const COLOURS = ['#4cc38a', '#5aa9ff', '#f5a524', '#e5484d', '#b18cff', '#e8eaf0'];

function value(v: number | null | undefined): string {
  return formatNumber(v, 3);
}

/** pass^k against k: x is the position of k in the job's list, y is 0..1 */
function SurfaceChart(props: { ks: number[]; series: TrialsSurfaceSeries[] }) {
  const { ks, series } = props;
  const w = 360;
  const h = 180;
  const pad = { l: 36, r: 12, t: 10, b: 28 };
  const x = (i: number) => pad.l + (ks.length === 1 ? 0.5 : i / (ks.length - 1)) * (w - pad.l - pad.r);
  const y = (v: number) => pad.t + (1 - v) * (h - pad.t - pad.b);
  return (
    <figure class="trials-chart">
      <svg
        viewBox={`0 0 ${w} ${h}`}
        role="img"
        aria-label="reliability surface: pass^k against k, one line per intensity"
        data-testid="trials-surface"
      >
        {[0, 0.5, 1].map((v) => (
          <g key={v}>
            <line x1={pad.l} x2={w - pad.r} y1={y(v)} y2={y(v)} stroke="#2a3040" />
            <text x={pad.l - 6} y={y(v) + 4} text-anchor="end" fill="#9aa3b2" font-size="10">
              {v}
            </text>
          </g>
        ))}
        {ks.map((k, i) => (
          <text key={k} x={x(i)} y={h - 10} text-anchor="middle" fill="#9aa3b2" font-size="10">
            k={k}
          </text>
        ))}
        {series.map((s, si) => {
          const colour = COLOURS[si % COLOURS.length];
          const points = ks
            .map((k, i) => ({ k, i, v: s.pass_k[k] }))
            .filter((p): p is { k: number; i: number; v: number } => typeof p.v === 'number');
          return (
            <g key={s.intensity} data-series={s.intensity} data-done={s.done} data-total={s.total}>
              <polyline
                fill="none"
                stroke={colour}
                stroke-width="2"
                points={points.map((p) => `${x(p.i)},${y(p.v)}`).join(' ')}
              />
              {points.map((p) => (
                <circle key={p.k} cx={x(p.i)} cy={y(p.v)} r="3" fill={colour} data-k={p.k} data-value={p.v}>
                  <title>{`intensity ${s.intensity}: pass^${p.k} = ${value(p.v)}`}</title>
                </circle>
              ))}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted small">
        {series.map((s, si) => (
          <span key={s.intensity} class="trials-legend" style={{ color: COLOURS[si % COLOURS.length] }}>
            intensity {s.intensity} ({s.done}/{s.total})
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function pair(p: { clean: number | null; faulted: number | null }, digits = 0): string {
  return `${formatNumber(p.clean, digits)} → ${formatNumber(p.faulted, digits)}`;
}

/** the report's behaviour and cost of one task, clean → faulted, in a line */
function behaviourLine(task: TaskReport): string {
  const b = task.behaviour;
  const m = b.markers?.faulted;
  return [
    `${task.id}: LLM calls ${pair(b.llm_calls, 1)}`,
    `tool calls ${pair(b.tool_calls, 1)}`,
    b.runaway ? 'runaway' : undefined,
    b.duplicate_side_effects ? `${b.duplicate_side_effects} duplicate side effect(s)` : undefined,
    b.false_success ? `${b.false_success} false success(es)` : undefined,
    m
      ? `markers ${m.entered_context}/${m.drove_action}/${m.reached_user} (context/action/user) in ${m.trials} trial(s)`
      : undefined,
    `tokens ${pair(task.cost.tokens)}`,
  ]
    .filter((x) => x !== undefined)
    .join(' · ');
}

function Job(props: { job: TrialsJob }) {
  const { job } = props;
  const plan = job.plan;
  const ks = plan?.ks ?? [];
  const report = job.report;
  return (
    <li class="trials-job" data-job={job.id} data-status={job.status} data-done={job.done} data-total={job.total}>
      <div class="regress-head">
        <strong>
          {plan ? `${plan.tasks.length} task(s)${plan.scenario ? ` under ${plan.scenario}` : ', clean only'}` : job.id}
        </strong>
        <span class={`tag status-${job.status}`}>{report ? `${job.status}: ${report.status}` : job.status}</span>
        <span class="muted small">
          {plan ? `seed ${plan.seed}, ${plan.n} per task and arm · ` : ''}
          {job.done}/{job.total} trials · updated {clockTime(job.updated_at)}
        </span>
      </div>
      <progress class="bar" max={Math.max(1, job.total)} value={job.done} aria-label="trials done" />
      {job.tasks.map((task) => (
        <table class="table" key={task.id} data-task={task.id}>
          <caption class="muted small">task {task.id}</caption>
          <thead>
            <tr>
              <th>arm</th>
              <th class="num">done</th>
              <th class="num">successes</th>
              {ks.map((k) => (
                <th class="num" key={k}>
                  pass^{k}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {task.arms.map((arm) => (
              <tr key={arm.arm} data-arm={arm.arm} data-done={arm.done} data-successes={arm.successes}>
                <td>{arm.arm}</td>
                <td class="num">
                  {arm.done}/{arm.n}
                </td>
                <td class="num">{arm.successes}</td>
                {ks.map((k) => (
                  <td class="num" key={k} data-k={k} data-value={arm.pass_k[k] ?? ''}>
                    {value(arm.pass_k[k])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
      {report?.trials.tasks.map((task) => (
        <p class="regress-line muted small" key={task.id} data-testid="trials-behaviour" data-task={task.id}>
          {behaviourLine(task)}
        </p>
      ))}
      {job.surface.length > 0 ? (
        <SurfaceChart ks={ks} series={job.surface} />
      ) : (
        <p class="muted small">no --intensity: no reliability surface for this job</p>
      )}
      {job.last && !report && (
        <p class="regress-line muted" data-testid="trials-last">
          last: {job.last.arm} {job.last.task}{' '}
          {job.last.passed ? 'passed' : `failed${job.last.detail ? ` (${job.last.detail})` : ''}`}
        </p>
      )}
      {report?.error && <p class="regress-line error">{report.error}</p>}
      {job.error && (
        <p class="regress-line error" data-testid="trials-error">
          stopped without a report: {job.error}
        </p>
      )}
    </li>
  );
}

export function TrialsPanel(props: { api: Api }) {
  return (
    <JobsPanel<TrialsJob>
      api={props.api}
      path="/arena/trials"
      title="Trials"
      name="trials"
      command="arena trials"
      job={(job) => <Job key={job.id} job={job} />}
    />
  );
}
