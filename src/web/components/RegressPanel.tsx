/**
 * Regress: the `regress --workers` jobs on the server's PostgreSQL database,
 * newest first. Per arm, runs done out of the plan (and how many are on a
 * worker or waiting); the current paired estimate over the complete pairs;
 * the latest sequential look, then the verdict. Polls GET /arena/regress once
 * a second: the queue is in the database, not in this server's event stream.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeFailure, type Api } from '../api.js';
import { usePoll } from '../use-poll.js';
import { clockTime, formatNumber } from '../format.js';
import type { RegressArm, RegressJob, RegressReply } from '../types.js';

/** jobs shown; the route keeps the 20 newest */
const SHOWN = 5;

function signed(x: number, digits = 1): string {
  return `${x >= 0 ? '+' : ''}${formatNumber(x, digits)}`;
}

function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

function ArmRow(props: { name: string; label: string | undefined; arm: RegressArm; planned: number | undefined }) {
  const { arm } = props;
  const of = props.planned ?? arm.total;
  return (
    <tr data-arm={props.name} data-done={arm.done} data-total={of}>
      <td>
        {props.name}
        {props.label && <div class="muted small">{props.label}</div>}
      </td>
      <td class="num">
        {arm.done}/{of}
        <progress
          class="bar"
          max={Math.max(1, of)}
          value={Math.min(arm.done, of)}
          aria-label={`${props.name} runs done`}
        />
      </td>
      <td class="num">{arm.running}</td>
      <td class="num">{arm.queued}</td>
      <td class={`num${arm.failed ? ' error' : ''}`}>{arm.failed}</td>
    </tr>
  );
}

function Job(props: { job: RegressJob }) {
  const { job } = props;
  const plan = job.plan;
  const look = job.looks[job.looks.length - 1];
  return (
    <li class="regress-job" data-batch={job.batch} data-status={job.status}>
      <div class="regress-head">
        <strong>{plan ? `${plan.candidate} vs ${plan.baseline}` : job.batch}</strong>
        <span class={`tag status-${job.status}`}>{job.status}</span>
        <span class="muted small">
          {plan
            ? `seed ${plan.seed}, ${plan.adaptive ? `adaptive ${plan.min_runs ?? '?'}..${plan.max_runs}` : `${plan.max_runs}`} runs per arm · `
            : ''}
          {job.workers.length} worker{job.workers.length === 1 ? '' : 's'} · updated {clockTime(job.updated_at)}
        </span>
      </div>
      <table class="table">
        <thead>
          <tr>
            <th>arm</th>
            <th class="num">done</th>
            <th class="num">on a worker</th>
            <th class="num">queued</th>
            <th class="num">failed</th>
          </tr>
        </thead>
        <tbody>
          <ArmRow name="baseline" label={plan?.baseline} arm={job.arms.baseline} planned={plan?.max_runs} />
          <ArmRow name="candidate" label={plan?.candidate} arm={job.arms.candidate} planned={plan?.max_runs} />
        </tbody>
      </table>
      <p class="regress-line" data-testid="regress-estimate">
        {job.estimate
          ? `estimate: candidate − baseline ${signed(job.estimate.difference)} over ${job.estimate.pairs} pair${job.estimate.pairs === 1 ? '' : 's'} (baseline ${formatNumber(job.estimate.baseline_mean)}, candidate ${formatNumber(job.estimate.candidate_mean)})`
          : 'estimate: no complete pair yet'}
      </p>
      {look && !job.outcome && (
        <p class="regress-line muted" data-testid="regress-look">
          look {look.index + 1} at {look.n} runs per arm: p = {formatP(look.p_value)}, boundary p ≤{' '}
          {formatP(look.nominal_p)} → {look.decision}
        </p>
      )}
      {job.outcome && (
        <p class="regress-line" data-testid="regress-decision" data-decision={job.outcome.decision}>
          <strong>{job.outcome.interrupted ? 'interrupted (no verdict)' : job.outcome.decision}</strong>: difference{' '}
          {signed(job.outcome.difference)}, p = {formatP(job.outcome.p_value)}, {job.outcome.runs_used} runs per arm
          {job.outcome.undecided_reason ? ` (${job.outcome.undecided_reason})` : ''}
        </p>
      )}
      {job.error && (
        <p class="regress-line error" data-testid="regress-error">
          stopped without a verdict: {job.error}
        </p>
      )}
    </li>
  );
}

export function RegressPanel(props: { api: Api }) {
  const [unavailable, setUnavailable] = useState(false);
  // a server without PostgreSQL will not grow a run queue: ask again rarely (it may be restarted with one)
  const poll = usePoll(() => props.api.get<RegressReply>('/arena/regress'), unavailable ? 30_000 : 1000);
  const reply = poll.data;
  useEffect(() => setUnavailable(reply?.available === false), [reply]);
  return (
    <section class="card wide" aria-labelledby="regress-h" data-testid="regress">
      <h2 id="regress-h">Regress</h2>
      {poll.error !== undefined && <p class="error">{describeFailure(poll.error)}</p>}
      {!reply ? (
        <p class="muted">loading…</p>
      ) : !reply.available ? (
        <p class="muted" data-testid="regress-unavailable">
          {reply.reason}
        </p>
      ) : reply.jobs.length === 0 ? (
        <p class="muted" data-testid="regress-empty">
          no regress --workers job on {reply.store} yet
        </p>
      ) : (
        <ul class="regress-jobs">
          {reply.jobs.slice(0, SHOWN).map((job) => (
            <Job key={job.batch} job={job} />
          ))}
        </ul>
      )}
    </section>
  );
}
