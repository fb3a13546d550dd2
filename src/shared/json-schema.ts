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

/** One zod schema as a JSON Schema body (no `$schema`), for embedding or publishing. */
export function jsonSchemaBody(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** A complete, published JSON Schema document: the head, then the schema's own body (or `oneOf` several). */
export function publishedJsonSchema(head: JsonSchemaHead, schema: z.ZodType | z.ZodType[]): Record<string, unknown> {
  const body = Array.isArray(schema) ? { oneOf: schema.map(jsonSchemaBody) } : jsonSchemaBody(schema);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:chaos-arena:schema:${head.name}`,
    title: head.title,
    description: head.description,
    ...body,
  };
}
