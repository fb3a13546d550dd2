/**
 * The embedded target's own trial tasks (DESIGN §14): `workflow` submits one run of the steady-state
 * workflow (fetch → plan → tool, recall → answer across the cluster) and grades it by the run's own
 * check, its output equal to the value expected for its input. The runtime records its agents' LLM
 * attempts into the target's call ledger (no headers in-process: a call is its trial's because trials
 * run one at a time); tool calls are not recorded yet, so tool_calls read 0 here.
 */
import type { TrialTasks } from '../../arena/trials/tasks.js';
import type { AgentRuntime } from '../../runtime/runtime.js';

export function embeddedTrialTasks(rt: AgentRuntime): TrialTasks {
  return {
    tasks: [{ id: 'workflow' }],
    sideEffects: [],
    prices: {},
    async run(taskId) {
      if (taskId !== 'workflow') return { passed: false, detail: `no task ${taskId}` };
      const passed = await rt.submitRun();
      return passed ? { passed } : { passed, detail: 'the workflow run failed or its output was wrong' };
    },
  };
}
