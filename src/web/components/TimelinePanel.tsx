/** Arena events as they arrive, newest first; each row carries its stream id. */
import type { TimelineItem } from '../types.js';
import { clockTime, describeEvent } from '../format.js';

const SHOWN = 200;

export function TimelinePanel(props: { items: TimelineItem[] }) {
  const shown = props.items.slice(-SHOWN).reverse();
  return (
    <section class="card" aria-labelledby="timeline-h">
      <h2 id="timeline-h">
        Event timeline <small class="muted">{props.items.length} events</small>
      </h2>
      {shown.length === 0 ? (
        <p class="muted">no events yet: inject a fault or run a scenario</p>
      ) : (
        <ol class="timeline" data-testid="timeline">
          {shown.map((item) => {
            const { text, tone } = describeEvent(item.type, item.data);
            return (
              <li key={item.id} data-event-id={item.id} class={tone}>
                <span class="muted">#{item.id}</span> <time>{clockTime(item.at)}</time> <span>{text}</span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
