/** The target's agents: role, status, restarts. The leader is marked. */
import type { Agent } from '../types.js';

export function AgentsPanel(props: { agents: Agent[] | undefined }) {
  return (
    <section class="card" aria-labelledby="agents-h">
      <h2 id="agents-h">Agents</h2>
      {!props.agents ? (
        <p class="muted">loading…</p>
      ) : (
        <table class="table" data-testid="agents">
          <thead>
            <tr>
              <th>agent</th>
              <th>role</th>
              <th>status</th>
              <th class="num">restarts</th>
            </tr>
          </thead>
          <tbody>
            {props.agents.map((a) => (
              <tr key={a.id} data-agent={a.id} data-role={a.role} data-status={a.status}>
                <td>{a.id}</td>
                <td>
                  <span class={`role role-${a.role}`}>{a.role}</span>
                </td>
                <td>
                  <span class={`status status-${a.status}`}>{a.status}</span>
                </td>
                <td class="num">{a.restarts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
