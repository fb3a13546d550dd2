/**
 * Active faults with the time they have left. The server gives start and end
 * on the target's clock with its `now_ms`; between polls the countdown runs
 * on the page's clock from the moment that answer arrived.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ActiveFault } from '../types.js';
import { formatMs } from '../format.js';

export function FaultsPanel(props: {
  faults: ActiveFault[] | undefined;
  nowMs: number | undefined;
  fetchedAt: number;
}) {
  const [, setTick] = useState(0);
  const hasTimed = props.faults?.some((f) => f.ends_at_ms !== undefined) ?? false;
  useEffect(() => {
    if (!hasTimed) return;
    const timer = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, [hasTimed]);

  const left = (f: ActiveFault): string => {
    if (f.ends_at_ms === undefined) return 'until reverted';
    const now = (props.nowMs ?? f.started_at_ms) + (Date.now() - props.fetchedAt);
    return `${formatMs(Math.max(0, f.ends_at_ms - now))} left`;
  };

  return (
    <section class="card" aria-labelledby="faults-h">
      <h2 id="faults-h">Active faults</h2>
      {!props.faults ? (
        <p class="muted">loading…</p>
      ) : props.faults.length === 0 ? (
        <p class="muted" data-testid="faults-empty">
          none: the target runs clean
        </p>
      ) : (
        <ul class="faults" data-testid="faults">
          {props.faults.map((f) => (
            <li key={f.id} data-fault={f.kind}>
              <strong>{f.kind}</strong> <span>{f.target}</span>
              <span class="left">{left(f)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
