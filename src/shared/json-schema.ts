/**
 * The published JSON Schema of a file the arena reads, generated from the zod
 * schema that validates it (one source): `arena schema <name>` prints it and
 * schemas/<name>.schema.json is it, for editors (`# yaml-language-server:
 * $schema=…`) and other tools. Values are described as written in the file
 * (io: input): a duration is a string with units or whole milliseconds, not the
 * milliseconds it becomes.
 */
import { z } from 'zod';

export interface JsonSchemaHead {
  /** `urn:chaos-arena:schema:<name>` */
  name: string;
  title: string;
  description: string;
}

/**
 * Stand-ins for parts a JSON Schema cannot run (a check written as code): the
 * published shape of that part, generated from the same tables the check uses.
 */
export type JsonSchemaStandIns = ReadonlyMap<z.ZodType, z.ZodType>;

/** One zod schema as a JSON Schema body (no `$schema`), for embedding or publishing. */
export function jsonSchemaBody(schema: z.ZodType, standIns?: JsonSchemaStandIns): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const standIn = standIns?.get(ctx.zodSchema as unknown as z.ZodType);
      if (standIn) Object.assign(ctx.jsonSchema, jsonSchemaBody(standIn));
    },
  }) as Record<string, unknown>;
  return rest;
}

/** A complete, published JSON Schema document: the head, then the schema's own body (or `oneOf` several). */
export function publishedJsonSchema(
  head: JsonSchemaHead,
  schema: z.ZodType | z.ZodType[],
  standIns?: JsonSchemaStandIns,
): Record<string, unknown> {
  const body = Array.isArray(schema)
    ? { oneOf: schema.map((s) => jsonSchemaBody(s, standIns)) }
    : jsonSchemaBody(schema, standIns);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:chaos-arena:schema:${head.name}`,
    title: head.title,
    description: head.description,
    ...body,
  };
}
