/**
 * Shrink: the `arena shrink --store …` jobs recorded in the server's event
 * store, newest first. While one runs: the candidate being tried, the size of
 * the smallest failing set confirmed so far against the original's (a bar that
 * shrinks with it) and the runs spent; once shrunk, the minimal faults with their
 * certificate (the failure rate without each, its 95% interval). Polls
 * GET /arena/shrinks once a second: a shrink runs in its own process and writes
 * to the store.
 */
import type { Api } from '../api.js';
import { clockTime } from '../format.js';
import type { ShrinkJob } from '../types.js';
import { JobsPanel } from './JobsPanel.js';

const SHOWN_LABELS = 4;

const STATUS_TEXT: Record<ShrinkJob['status'], string> = {
  running: 'running',
  shrunk: 'shrunk',
  not_reproduced: 'did not reproduce',
  interrupted: 'interrupted',
  error: 'error',
  abandoned: 'abandoned',
};

function labels(list: readonly string[]): string {
  const shown = list.slice(0, SHOWN_LABELS).join(', ');
  return list.length > SHOWN_LABELS ? `${shown} (+${list.length - SHOWN_LABELS} more)` : shown;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const percent = (x: number) => `${(x * 100).toFixed(0)}%`;

/** "candidate N · size S of O · runs R · phase P · trying …" */
function progressLine(job: ShrinkJob): string {
  return [
    `candidate ${job.candidates}`,
    `size ${job.size} of ${job.original_faults}`,
    `runs ${job.runs}`,
    job.phase !== undefined ? `phase ${job.phase}` : undefined,
    job.trying ? `trying ${job.trying.length}: ${labels(job.trying)}` : undefined,
  ]
    .filter((x) => x !== undefined)
    .join(' · ');
}

function Job(props: { job: ShrinkJob }) {
  const { job } = props;
  const phases = Object.entries(job.runs_by_phase).filter(([, c]) => c.runs > 0 || c.candidates > 0);
  return (
    <li
      class="shrink-job"
      data-job={job.id}
      data-status={job.status}
      data-size={job.size}
      data-original={job.original_faults}
      data-runs={job.runs}
    >
      <div class="regress-head">
        <strong>{job.source ?? job.id}</strong>
        <span class={`tag status-${job.status}`}>{STATUS_TEXT[job.status]}</span>
        <span class="muted small">
          {job.target ? `on ${job.target} · ` : ''}
          {job.seed !== undefined ? `seed ${job.seed} · ` : ''}
          {job.search ? `${job.search} · ` : ''}updated {clockTime(job.updated_at)}
        </span>
      </div>
      {job.signature && (
        <p class="regress-line muted small">
          fails with {job.signature.failures.join(', ')}
          {job.signature.families.length > 0 ? ` (faults: ${job.signature.families.join(', ')})` : ''}
        </p>
      )}
      <p class="regress-line" data-testid="shrink-progress">
        {progressLine(job)}
      </p>
      <progress
        class="bar"
        max={Math.max(1, job.original_faults)}
        value={job.size}
        aria-label={`smallest failing set: ${job.size} of ${job.original_faults} fault(s)`}
      />
      {job.faults.length > 0 && !job.minimal_faults && (
        <p class="regress-line muted small" data-testid="shrink-smallest">
          still fails with {job.faults.length} of {job.original_faults}: {labels(job.faults)}
        </p>
      )}
      {phases.length > 0 && (
        <p class="regress-line muted small" data-testid="shrink-phases">
          runs by phase:{' '}
          {phases.map(([phase, c]) => `${phase} ${c.runs} (${plural(c.candidates, 'candidate')})`).join(' · ')}
        </p>
      )}
      {job.minimal_faults && (
        <table class="table" data-testid="shrink-minimal">
          <caption class="muted small">
            minimal: {job.minimal_faults.length} of {job.original_faults} fault(s)
            {job.method ? `, ${job.method}` : ''} · certificate: the failure rate without each fault (95% Wilson
            interval)
          </caption>
          <thead>
            <tr>
              <th>fault</th>
              <th class="num">fails without it</th>
              <th class="num">runs</th>
              <th class="num">interval</th>
            </tr>
          </thead>
          <tbody>
            {job.minimal_faults.map((fault) => {
              const c = job.certificate?.find((e) => e.fault === fault);
              return (
                <tr key={fault} data-fault={fault} data-fail-rate={c?.fail_rate_without ?? ''}>
                  <td>{fault}</td>
                  <td class="num">{c ? percent(c.fail_rate_without) : '–'}</td>
                  <td class="num">{c ? c.runs : '–'}</td>
                  <td class="num">{c ? `[${percent(c.interval[0])}, ${percent(c.interval[1])}]` : '–'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {job.message && (
        <p class="regress-line error" data-testid="shrink-message">
          {job.message}
        </p>
      )}
      {job.status === 'abandoned' && (
        <p class="regress-line error">no word from this shrink for 30 s: its process is gone</p>
      )}
    </li>
  );
}

export function ShrinkPanel(props: { api: Api }) {
  return (
    <JobsPanel<ShrinkJob>
      api={props.api}
      path="/arena/shrinks"
      title="Shrink"
      name="shrink"
      command="arena shrink"
      job={(job) => <Job key={job.id} job={job} />}
    />
  );
}
