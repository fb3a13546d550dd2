/** The target files' published JSON Schema (`arena schema target`), from the zod schemas that validate them. */
import { publishedJsonSchema } from '../shared/json-schema.js';
import { embeddedTargetSchema } from './embedded/spec.js';
import { processTargetSchema } from './process/spec.js';
import { remoteTargetSchema } from './remote/spec.js';

export function targetJsonSchema(): Record<string, unknown> {
  return allowEnvReferences(
    publishedJsonSchema(
      {
        name: 'target',
        title: 'Chaos Arena target file',
        description: 'What the arena attacks: kind embedded, process or remote (DESIGN §9)',
      },
      [embeddedTargetSchema, processTargetSchema, remoteTargetSchema],
    ),
  );
}

/** a value still holding a `${NAME…}` reference: the arena checks it after replacing it, an editor cannot */
const ENV_REFERENCE = {
  type: 'string',
  pattern: '\\$\\{[^}]*\\}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the reference syntax itself, shown to editors
  description: 'an environment reference, ${NAME}, ${NAME:-default} or ${NAME:-7000 + 1}, checked once replaced',
};

/**
 * The schema describes the file as written, before `${NAME}` references are replaced: every
 * number, boolean or shaped string may also be written as a reference.
 */
function allowEnvReferences<T>(node: T): T {
  if (Array.isArray(node)) return node.map(allowEnvReferences) as T;
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'enum' || k === 'const' ? v : allowEnvReferences(v);
  const type = out.type;
  const shaped =
    type === 'integer' ||
    type === 'number' ||
    type === 'boolean' ||
    (Array.isArray(type) && !type.includes('string')) ||
    (type === 'string' && (out.pattern !== undefined || out.format !== undefined || out.enum !== undefined));
  if (!shaped) return out as T;
  const { description, ...rest } = out;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, ENV_REFERENCE] } as T;
}
