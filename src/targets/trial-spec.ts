/**
 * The trial keys of a target file (DESIGN §14): `tasks` (requests with a graded answer), `side_effects`
 * (tool globs whose duplicate calls are defects) and `prices` (per model, for the cost of a trial). The
 * request and expect schemas are the workload's own, passed in, so a task is checked exactly like a
 * workload request (JSON paths parsed when the file is read) and this module imports no target kind.
 */
import { z } from 'zod';

const TASK_ID = /^[A-Za-z0-9._-]{1,64}$/;
const GLOB = /^[A-Za-z0-9_.:/*?-]{1,128}$/;

const price = z.strictObject({
  input_per_mtok: z.number().min(0).max(10_000),
  output_per_mtok: z.number().min(0).max(10_000),
});

export function trialSchemas<R extends z.ZodType, E extends z.ZodType>(request: R, expect: E) {
  const task = z.strictObject({
    id: z.string().regex(TASK_ID, 'expected 1-64 letters, digits, . _ -'),
    description: z.string().optional(),
    request,
    expect: expect.default({} as never),
    /** tools (globs) the task needs: an answer that passes while none of them succeeded is a false success */
    needs: z.array(z.string().regex(GLOB, 'expected a tool name or glob (* and ?)')).min(1).optional(),
  });
  return {
    tasks: z.array(task).min(1, 'tasks: list at least one task, or leave the key out').optional(),
    side_effects: z
      .array(z.string().regex(GLOB, 'expected a tool name or glob (* and ?)'))
      .optional()
      .describe('tools (globs) whose duplicate calls in one trial are defects'),
    prices: z.record(z.string().min(1), price).optional().describe('per model: USD per million tokens'),
  };
}

/** duplicate task ids, at the second one */
export function trialProblems(spec: { tasks?: ReadonlyArray<{ id: string }> | undefined }, ctx: z.RefinementCtx): void {
  const seen = new Map<string, number>();
  spec.tasks?.forEach((t, i) => {
    const first = seen.get(t.id);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tasks', i, 'id'],
        message: `duplicate task id ${t.id} (first at tasks[${first}])`,
      });
    else seen.set(t.id, i);
  });
}

/** What a target file says about trials, as a target consumes it. */
export interface TrialSpec<Req, Exp> {
  tasks?: Array<{ id: string; description?: string; request: Req; expect: Exp; needs?: string[] }>;
  side_effects?: string[];
  prices?: Record<string, { input_per_mtok: number; output_per_mtok: number }>;
}
