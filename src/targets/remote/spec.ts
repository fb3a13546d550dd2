/** `kind: remote` in a target file (DESIGN §9.2). */
import { z } from 'zod';
import { durationMs } from '../../shared/zod-problems.js';
import { expectSchema, requestSchema } from '../process/spec.js';
import { trialProblems, trialSchemas } from '../trial-spec.js';

export const remoteTargetSchema = z
  .strictObject({
    kind: z.literal('remote'),
    name: z.string().min(1),
    url: z.string().refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), {
      message: 'expected an http:// or https:// URL',
    }),
    /** the environment variable holding the bearer token */
    token_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
      .optional(),
    lease: durationMs.optional(),
    /** how long one protocol request may take (default 2s) */
    timeout: durationMs.optional(),
    ...trialSchemas(requestSchema, expectSchema),
  })
  .superRefine((spec, ctx) => trialProblems(spec, ctx));

export type RemoteTargetSpec = z.output<typeof remoteTargetSchema>;
