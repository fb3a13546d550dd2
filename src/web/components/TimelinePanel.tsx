/**
 * Arena events as they arrive, newest first, grouped by the run that executed
 * them (the server's runs, from the dashboard); faults injected on their own
 * are grouped apart. Each injection shows its recovery next to it: how long
 * the target took to be healthy again, still recovering, or not recovered.
 */
import type { Recovery, RunSummary, TimelineItem } from '../types.js';
import { clockTime, describeEvent, endedWhy, formatMs, formatNumber } from '../format.js';

const SHOWN = 200;

interface Group {
  key: string;
  run?: RunSummary;
  items: TimelineItem[];
}

function actionIdOf(item: TimelineItem): string | undefined {
  const id = (item.data as { action?: { id?: unknown } } | undefined)?.action?.id;
  return typeof id === 'string' ? id : undefined;
}

/** newest group first: a run's items stay together, faults injected on their own between runs form their own group */
function groupByRun(items: TimelineItem[], runs: RunSummary[]): Group[] {
  const runOf = new Map<string, RunSummary>();
  for (const run of runs) for (const id of run.action_ids) runOf.set(id, run);
  const groups: Array<Group & { of: string }> = [];
  for (const item of items) {
    const id = actionIdOf(item);
    const run = id === undefined ? undefined : runOf.get(id);
    const of = run ? `run-${run.id}` : 'single';
    const last = groups.at(-1);
    if (last && last.of === of) last.items.push(item);
    else groups.push({ of, key: `${of}-${item.id}`, items: [item], ...(run ? { run } : {}) });
  }
  return groups.reverse();
}

function recoveryText(recovery: Recovery | undefined): { text: string; tone: string } | undefined {
  if (!recovery) return undefined;
  if (recovery.recovered && recovery.recovery_ms !== undefined)
    return { text: `recovered in ${formatMs(recovery.recovery_ms)}`, tone: 'ok' };
  return recovery.recovered ? { text: 'recovered', tone: 'ok' } : { text: 'not recovered yet', tone: 'bad' };
}

function runTitle(run: RunSummary): string {
  const end = run.status ? `${run.status}${run.score != null ? `, score ${formatNumber(run.score)}` : ''}` : 'running';
  return `${run.kind} ${run.name} (seed ${run.seed}) · ${end}`;
}

export function TimelinePanel(props: { items: TimelineItem[]; runs: RunSummary[]; recoveries: Recovery[] }) {
  const shown = props.items.slice(-SHOWN);
  const byAction = new Map(props.recoveries.map((r) => [r.action_id, r]));
  const groups = groupByRun(shown, props.runs);
  return (
    <section class="card" aria-labelledby="timeline-h">
      <h2 id="timeline-h">
        Event timeline <small class="muted">{props.items.length} events</small>
      </h2>
      {shown.length === 0 ? (
        <p class="muted">no events yet: inject a fault or run a scenario</p>
      ) : (
        <div class="timeline" data-testid="timeline">
          {groups.map((group) => (
            <section key={group.key} class="timeline-group" data-run={group.run?.id}>
              <h3 class="muted">{group.run ? runTitle(group.run) : 'faults injected on their own'}</h3>
              {group.run && endedWhy(group.run) && (
                <p class="error" data-testid="run-ended-why">
                  {endedWhy(group.run)}
                </p>
              )}
              <ol>
                {[...group.items].reverse().map((item) => {
                  const { text, tone } = describeEvent(item.type, item.data);
                  const id = actionIdOf(item);
                  const recovery = recoveryText(id === undefined ? undefined : byAction.get(id));
                  return (
                    <li key={item.id} data-event-id={item.id} class={tone}>
                      <span class="muted">#{item.id}</span> <time>{clockTime(item.at)}</time> <span>{text}</span>
                      {recovery && (
                        <span class={`recovery ${recovery.tone}`} data-testid="recovery">
                          {' '}
                          · {recovery.text}
                        </span>
                      )}
                    </li>
                  );
                })}
              </ol>
            </section>
          ))}
        </div>
      )}
    </section>
  );
}
