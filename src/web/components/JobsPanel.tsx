/**
 * A card of the jobs a command recorded into the server's event store
 * (`arena trials --store`, `arena shrink --store`), newest first. Polls the
 * route once a second: those commands run in their own process and write to
 * the store, so their progress is read, not pushed.
 */
import type { ComponentChildren } from 'preact';
import { describeFailure, type Api } from '../api.js';
import { usePoll } from '../use-poll.js';

/** jobs shown; the routes keep the 20 newest */
const SHOWN = 3;

export function JobsPanel<J extends { id: string }>(props: {
  api: Api;
  /** GET route answering `{ store, jobs }` */
  path: string;
  title: string;
  /** data-testid of the card, and the stem of its heading's id */
  name: string;
  /** the command that records such jobs, for the empty state */
  command: string;
  job(job: J): ComponentChildren;
}) {
  const poll = usePoll(() => props.api.get<{ store: string; jobs: J[] }>(props.path), 1000);
  const reply = poll.data;
  return (
    <section class="card wide" aria-labelledby={`${props.name}-h`} data-testid={props.name}>
      <h2 id={`${props.name}-h`}>{props.title}</h2>
      {poll.error !== undefined && <p class="error">{describeFailure(poll.error)}</p>}
      {!reply ? (
        <p class="muted">loading…</p>
      ) : reply.jobs.length === 0 ? (
        <p class="muted" data-testid={`${props.name}-empty`}>
          no {props.name} job in {reply.store} yet: run {props.command} --store with this server's store
        </p>
      ) : (
        <ul class="regress-jobs">{reply.jobs.slice(0, SHOWN).map((job) => props.job(job))}</ul>
      )}
    </section>
  );
}
