/**
 * The flight recorder's diagnostics of failed actions: what failed, the
 * likely root cause, suggested fixes. Fetched again whenever a failure
 * arrives on the event stream.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeFailure, type Api } from '../api.js';
import type { Diagnostic } from '../types.js';
import { clockTime } from '../format.js';

export function DiagnosticsPanel(props: { api: Api; failures: number }) {
  const [items, setItems] = useState<Diagnostic[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    let current = true;
    props.api
      .get<{ diagnostics: Diagnostic[] }>('/arena/flight/diagnostics?limit=20')
      .then((r) => current && (setItems(r.diagnostics.slice().reverse()), setError(undefined)))
      .catch((err: unknown) => current && setError(describeFailure(err)));
    return () => {
      current = false;
    };
  }, [props.api, props.failures]);

  return (
    <section class="card" aria-labelledby="diag-h">
      <h2 id="diag-h">Flight diagnostics</h2>
      {error && <p class="error">{error}</p>}
      {!items ? (
        <p class="muted">loading…</p>
      ) : items.length === 0 ? (
        <p class="muted">no failed actions</p>
      ) : (
        <ul class="diagnostics" data-testid="diagnostics">
          {items.map((d) => (
            <li key={d.id}>
              <div>
                <time>{clockTime(d.at)}</time> <strong>{d.type}</strong> {d.target_id}{' '}
                <span class="tag">{d.failure_reason ?? d.category}</span>
              </div>
              {d.error && <div class="error">{d.error}</div>}
              {d.root_cause && <div class="muted">{d.root_cause}</div>}
              {d.suggested_fixes?.length ? (
                <details>
                  <summary>{d.suggested_fixes.length} suggested fixes</summary>
                  <ul>
                    {d.suggested_fixes.map((f, i) => (
                      <li key={i}>{f}</li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
