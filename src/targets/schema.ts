/**
 * The published JSON Schema of target files, generated from the same zod
 * schemas that validate them (one source): `arena schema target` prints it and
 * schemas/target.schema.json is it, for editors (`# yaml-language-server:
 * $schema=…`) and other tools. Durations are described as written in the file
 * (a string with units or whole milliseconds), not as the milliseconds they become.
 */
import { z } from 'zod';
import { embeddedTargetSchema } from './embedded/spec.js';
import { processTargetSchema } from './process/spec.js';
import { remoteTargetSchema } from './remote/spec.js';

export function targetJsonSchema(): Record<string, unknown> {
  const one = (schema: z.ZodType) => {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    return rest;
  };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:chaos-arena:schema:target',
    title: 'Chaos Arena target file',
    description: 'What the arena attacks: kind embedded, process or remote (DESIGN §9)',
    oneOf: [one(embeddedTargetSchema), one(processTargetSchema), one(remoteTargetSchema)],
  };
}
