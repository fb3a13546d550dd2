/**
 * A stand-in target for trials tests: one agent, an llm_failure it really applies (a flag its tasks
 * read), tasks whose outcome per try is scripted, and a call ledger its "agent" records into, with the
 * trial header it was given. What the agent does wrong is chosen by the test, so each defect is shown
 * by an agent that really does it and is absent for one that does not.
 */
import type { Target } from '../../../../src/arena/providers.js';
import type { TrialMark, TrialTaskInfo } from '../../../../src/arena/trials/tasks.js';
import { createCallLedger, type NewCall } from '../../../../src/protocol/calls.js';

export interface Behaviour {
  /** does the n-th try (0-based, per task and arm) pass? */
  passes(task: string, faulted: boolean, attempt: number): boolean;
  /** LLM calls per try */
  llmCalls?(task: string, faulted: boolean): number;
  /** tool calls per try: name, args hash, ok */
  toolCalls?(task: string, faulted: boolean): Array<{ tool: string; args_hash: string; ok: boolean }>;
  /** how the agent marks its calls: forward the trial header (default), only traceparent, or nothing */
  forwards?: 'trial' | 'traceparent' | 'nothing';
}

export function standInTarget(
  tasks: TrialTaskInfo[],
  behaviour: Behaviour,
  options: { sideEffects?: string[]; withLedger?: boolean } = {},
) {
  let faulted = false;
  const applied: string[] = [];
  const attempts = new Map<string, number>();
  const ledger = createCallLedger();
  const runtime = {
    listAgents: async () => [{ id: 'agent', role: 'worker' as const, status: 'running' as const, restarts: 0 }],
    async injectLlmFailure(_id: string, errorType: string) {
      faulted = true;
      applied.push(errorType);
      return {};
    },
    activeFaults: async () => [],
    revertFault: async () => false,
    async revertAll() {
      faulted = false;
    },
  } as unknown as Target['runtime'];
  const record = (mark: TrialMark, call: Omit<NewCall, 'started_ms' | 'ended_ms' | 'faulted'>) => {
    const now = Date.now();
    const forwards = behaviour.forwards ?? 'trial';
    ledger.record({
      ...call,
      started_ms: now,
      ended_ms: now,
      faulted,
      ...(forwards === 'trial' ? { trial: mark.trial } : {}),
      ...(forwards === 'traceparent' ? { trace_id: mark.traceparent.split('-')[1]! } : {}),
    });
  };
  const target: Target = {
    kind: 'process',
    name: 'stand-in',
    runtime,
    observer: {
      health: async () => ({ healthy: true, problems: [] }),
      workload: async () => ({ requests: 0, succeeded: 0, failed: 0 }),
      checkInvariants: async () => [],
    },
    start: async () => undefined,
    stop: async () => undefined,
    unsupportedFaults: () => ({}),
    describe: async () => ({ name: 'stand-in', agents: [], dag: { nodes: [], edges: [] }, strategy: {} }),
    ...(options.withLedger === false ? {} : { calls: ledger }),
    trials: {
      tasks,
      sideEffects: options.sideEffects ?? [],
      prices: { 'gpt-test': { input_per_mtok: 1, output_per_mtok: 2 } },
      async run(taskId, mark) {
        const key = `${taskId}/${faulted}`;
        const attempt = attempts.get(key) ?? 0;
        attempts.set(key, attempt + 1);
        for (let i = 0; i < (behaviour.llmCalls?.(taskId, faulted) ?? 1); i++)
          record(mark, { kind: 'llm', ok: !faulted, model: 'gpt-test', tokens: { input: 100, output: 20 } });
        for (const t of behaviour.toolCalls?.(taskId, faulted) ?? []) record(mark, { kind: 'tool', ...t });
        return { passed: behaviour.passes(taskId, faulted, attempt) };
      },
    },
  };
  return { target, applied };
}
