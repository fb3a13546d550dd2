/** `kind: embedded` in a target file: the built-in runtime, optionally with a strategy file. */
import { z } from 'zod';

export const embeddedTargetSchema = z.strictObject({
  kind: z.literal('embedded'),
  name: z.string().min(1),
  /** a recovery strategy YAML, relative to the target file */
  strategy: z.string().min(1).optional(),
  /** workload runs per second */
  workload_rate: z.number().positive().max(10_000).optional(),
});
