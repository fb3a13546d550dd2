/** The target files' published JSON Schema (`arena schema target`), from the zod schemas that validate them. */
import { publishedJsonSchema } from '../shared/json-schema.js';
import { embeddedTargetSchema } from './embedded/spec.js';
import { processTargetSchema } from './process/spec.js';
import { remoteTargetSchema } from './remote/spec.js';

export function targetJsonSchema(): Record<string, unknown> {
  return publishedJsonSchema(
    {
      name: 'target',
      title: 'Chaos Arena target file',
      description: 'What the arena attacks: kind embedded, process or remote (DESIGN §9)',
    },
    [embeddedTargetSchema, processTargetSchema, remoteTargetSchema],
  );
}
