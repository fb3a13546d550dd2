/**
 * A target file's tasks as trials run them (DESIGN §14), for every kind that lists them (process,
 * remote): each try is the task's request, marked with `x-arena-trial` and a `traceparent` for the agent
 * to forward on its LLM and tool calls, graded by the task's `expect` like a workload answer.
 */
import type { TrialTasks } from '../arena/trials/tasks.js';
import { errorMessage } from '../shared/errors.js';
import { checkAnswer } from './process/expect.js';
import { sendRequest } from './process/request.js';
import type { ExpectSpec, RequestSpec } from './process/spec.js';
import type { TrialSpec } from './trial-spec.js';

export function createTrialTasks(
  spec: TrialSpec<RequestSpec, ExpectSpec>,
  options: {
    /** told each answer's body before it is graded: a process target looks for markers in it (DESIGN §13.3) */
    onAnswer?: (body: string) => void;
  } = {},
): TrialTasks | undefined {
  if (!spec.tasks || spec.tasks.length === 0) return undefined;
  const byId = new Map(spec.tasks.map((t) => [t.id, t]));
  return {
    tasks: spec.tasks.map((t) => ({ id: t.id, ...(t.needs ? { needs: t.needs } : {}) })),
    sideEffects: spec.side_effects ?? [],
    prices: spec.prices ?? {},
    async run(taskId, mark) {
      const task = byId.get(taskId);
      if (!task) return { passed: false, detail: `no task ${taskId}` };
      const request = {
        ...task.request,
        headers: { ...task.request.headers, 'x-arena-trial': mark.trial, traceparent: mark.traceparent },
      };
      try {
        const answer = await sendRequest(request, mark.signal);
        options.onAnswer?.(answer.body);
        const problem = checkAnswer(answer, task.expect);
        return problem === undefined ? { passed: true } : { passed: false, detail: problem };
      } catch (err) {
        return { passed: false, detail: errorMessage(err) };
      }
    },
  };
}
