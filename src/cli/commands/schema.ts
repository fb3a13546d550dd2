/** `arena schema target`: the JSON Schema of a file the arena reads, generated from the schema that validates it. */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import { examples } from './options.js';

const SCHEMAS = ['target'] as const;

export function registerSchemaCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('schema')
    .description('print the JSON Schema of a file the arena reads (for editors and validators)')
    .argument('<name>', `which file: ${SCHEMAS.join(', ')}`);
  examples(command, ['arena schema target > target.schema.json', 'arena schema target | jq .oneOf[].properties.kind']);
  command.action(async (name: string) => {
    if (!(SCHEMAS as readonly string[]).includes(name)) throw new UsageError(`unknown schema "${name}" (one of ${SCHEMAS.join(', ')})`, 'unknown_schema');
    const { targetJsonSchema } = await import('../../targets/schema.js');
    ctx.stdout.write(`${JSON.stringify(targetJsonSchema(), null, 2)}\n`);
  });
}
