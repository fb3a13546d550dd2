/**
 * Inject any fault the target supports (the dashboard's `faults`), with the
 * parameters that fault takes. The action goes through POST /arena/actions,
 * the same validation as the CLI; a fault that could not be applied (422)
 * and a refused request (400) both show the server's reason.
 */
import { useEffect, useState } from 'preact/hooks';
import { describeFailure, type Api } from '../api.js';
import type { Dashboard } from '../types.js';
import type { ActionType } from '../../arena/action.js';
import { describeResult } from '../format.js';

/**
 * What the form asks for per fault: an agent to aim at, a duration. A Record: a new fault type
 * does not compile until the form knows it (the type import is erased from the bundle).
 */
const FORM: Record<ActionType, { isAgentFault: boolean; hasDuration: boolean }> = {
  kill_agent: { isAgentFault: true, hasDuration: false },
  kill_leader: { isAgentFault: false, hasDuration: false },
  kill_orchestrator: { isAgentFault: false, hasDuration: false },
  pause_agent: { isAgentFault: true, hasDuration: true },
  resume_agent: { isAgentFault: true, hasDuration: false },
  slow_agent: { isAgentFault: true, hasDuration: true },
  network_partition: { isAgentFault: true, hasDuration: true },
  tool_timeout: { isAgentFault: true, hasDuration: true },
  memory_corrupt: { isAgentFault: true, hasDuration: false },
  mcp_disconnect: { isAgentFault: true, hasDuration: false },
  llm_failure: { isAgentFault: true, hasDuration: true },
  remove_node: { isAgentFault: false, hasDuration: false },
  remove_edge: { isAgentFault: false, hasDuration: false },
  tool_fault: { isAgentFault: true, hasDuration: true },
};
const FAULT_TYPES = Object.keys(FORM) as ActionType[];
const AGENT_FAULTS = new Set<string>(FAULT_TYPES.filter((t) => FORM[t].isAgentFault));
const WITH_DURATION = new Set<string>(FAULT_TYPES.filter((t) => FORM[t].hasDuration));
const LLM_ERRORS = ['rate_limit', 'overloaded', 'timeout', 'server_error'];
/** tool_fault's modes the form offers (DESIGN §13.2); schema_drift needs tool names, so it is left to scenarios */
const TOOL_MODES = ['truncate', 'empty', 'corrupt', 'inject', 'duplicate_call'];
const ALL_FAULTS = [...AGENT_FAULTS, ...FAULT_TYPES.filter((t) => !FORM[t].isAgentFault)];

interface Outcome {
  ok: boolean;
  text: string;
}

export function InjectPanel(props: { api: Api; dashboard: Dashboard | undefined; onDone(): void }) {
  const d = props.dashboard;
  const faults = d?.faults ?? ALL_FAULTS;
  const [type, setType] = useState('kill_leader');
  const [target, setTarget] = useState('');
  const [duration, setDuration] = useState('');
  const [delay, setDelay] = useState('');
  const [errorType, setErrorType] = useState('rate_limit');
  const [toolMode, setToolMode] = useState('inject');
  const [tool, setTool] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);

  const choices: Array<{ value: string; label: string }> = AGENT_FAULTS.has(type)
    ? (d?.agents ?? []).map((a) => ({ value: a.id, label: `${a.id} (${a.role})` }))
    : type === 'remove_node'
      ? (d?.dag?.nodes ?? []).map((n) => ({ value: n, label: n }))
      : type === 'remove_edge'
        ? (d?.dag?.edges ?? []).map((e) => ({ value: JSON.stringify([e.from, e.to]), label: `${e.from} → ${e.to}` }))
        : [];
  // keep the chosen target while it exists; otherwise the first one offered
  useEffect(() => {
    if (choices.length && !choices.some((c) => c.value === target)) setTarget(choices[0]!.value);
  }, [type, choices.map((c) => c.value).join('|')]);

  const needsTarget = AGENT_FAULTS.has(type) || type === 'remove_node' || type === 'remove_edge';
  const submit = async (e: Event) => {
    e.preventDefault();
    const action: Record<string, unknown> = { type };
    if (needsTarget && !target)
      return setOutcome({ ok: false, text: `Nothing to aim ${type} at: the target lists none right now.` });
    if (needsTarget) {
      if (type === 'remove_edge') {
        const [from, to] = JSON.parse(target) as [string, string];
        action.source_id = from;
        action.target_id = to;
      } else action.target_id = target;
    }
    const metadata: Record<string, string> = {};
    if (WITH_DURATION.has(type) && duration.trim()) metadata.duration = duration.trim();
    if (type === 'slow_agent' && delay.trim()) metadata.delay = delay.trim();
    if (type === 'llm_failure') metadata.error_type = errorType;
    if (type === 'tool_fault') {
      metadata.mode = toolMode;
      if (tool.trim()) metadata.tool = tool.trim();
    }
    if (Object.keys(metadata).length) action.metadata = metadata;
    setBusy(true);
    try {
      const reply = await props.api.post<{ success: boolean; error?: string }>('/arena/actions', action);
      const result = reply.body;
      setOutcome(
        result.success
          ? { ok: true, text: `Injected: ${describeResult(result)}` }
          : { ok: false, text: `Not applied (422): ${result.error ?? describeResult(result)}` },
      );
      props.onDone();
    } catch (err) {
      setOutcome({ ok: false, text: `Refused: ${describeFailure(err)}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="inject-h">
      <h2 id="inject-h">Inject a fault</h2>
      <form class="form" onSubmit={submit} data-testid="inject">
        <label>
          fault
          <select name="type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value)}>
            {faults.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </label>
        {needsTarget && (
          <label>
            {type === 'remove_edge' ? 'edge' : type === 'remove_node' ? 'node' : 'agent'}
            <select name="target" value={target} onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}>
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {WITH_DURATION.has(type) && (
          <label>
            duration
            <input
              name="duration"
              placeholder="5s"
              value={duration}
              onInput={(e) => setDuration((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        {type === 'slow_agent' && (
          <label>
            delay per task
            <input
              name="delay"
              placeholder="= duration"
              value={delay}
              onInput={(e) => setDelay((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        {type === 'llm_failure' && (
          <label>
            error
            <select
              name="error_type"
              value={errorType}
              onChange={(e) => setErrorType((e.target as HTMLSelectElement).value)}
            >
              {LLM_ERRORS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
        )}
        {type === 'tool_fault' && (
          <label>
            mode
            <select name="mode" value={toolMode} onChange={(e) => setToolMode((e.target as HTMLSelectElement).value)}>
              {TOOL_MODES.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </label>
        )}
        {type === 'tool_fault' && (
          <label>
            tool
            <input
              name="tool"
              placeholder="* (every tool)"
              value={tool}
              onInput={(e) => setTool((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Injecting…' : 'Inject'}
        </button>
      </form>
      {outcome && (
        <p class={outcome.ok ? 'ok' : 'error'} role={outcome.ok ? 'status' : 'alert'} data-testid="inject-outcome">
          {outcome.text}
        </p>
      )}
    </section>
  );
}
