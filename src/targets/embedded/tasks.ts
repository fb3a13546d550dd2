/**
 * The embedded target's own trial tasks (DESIGN §14): `workflow` submits one run of the steady-state
 * workflow (fetch → plan → tool, recall → answer across the cluster) and grades it by the run's own
 * check, its output equal to the value expected for its input; it needs the `lookup` tool (the answer
 * carries what lookup returned). The runtime records its agents' LLM attempts and tool calls into the
 * target's call ledger, so tool_calls, duplicate side effects (of the tools `sideEffects` names) and false
 * success are measured as on a process target. There are no headers in-process: while a trial's run is in
 * flight (one at a time) the target marks every call with that trial, as an agent forwarding
 * `x-arena-trial` would; a trial takes about a millisecond here, so the in-flight window of the
 * wall clock could not tell two back-to-back trials apart.
 */
import type { TrialTasks } from '../../arena/trials/tasks.js';
import type { AgentRuntime } from '../../runtime/runtime.js';

export function embeddedTrialTasks(
  rt: AgentRuntime,
  options: {
    sideEffects?: readonly string[] | undefined;
    /** told the trial whose run is in flight, then undefined when it is over */
    inFlight?: (trial: string | undefined) => void;
  } = {},
): TrialTasks {
  return {
    tasks: [{ id: 'workflow', needs: ['lookup'] }],
    sideEffects: options.sideEffects ?? [],
    prices: {},
    async run(taskId, mark) {
      if (taskId !== 'workflow') return { passed: false, detail: `no task ${taskId}` };
      options.inFlight?.(mark.trial);
      let passed: boolean;
      try {
        passed = await rt.submitRun();
      } finally {
        options.inFlight?.(undefined);
      }
      return passed ? { passed } : { passed, detail: 'the workflow run failed or its output was wrong' };
    },
  };
}
