/** `arena schema <name>`: the JSON Schema of a file the arena reads, generated from the zod schema that validates it. */
import { Argument, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';

/** each loaded only when asked for: the schemas pull in their validators */
const SCHEMAS = {
  scenario: async () => (await import('../../arena/scenario/schema.js')).scenarioJsonSchema(),
  strategy: async () => (await import('../../runtime/strategy-schema.js')).strategyJsonSchema(),
  target: async () => (await import('../../targets/schema.js')).targetJsonSchema(),
  workflow: async () => (await import('../../workflow/schema.js')).workflowJsonSchema(),
  'client-config': async () => (await import('../../client/config-schema.js')).clientConfigJsonSchema(),
  http: async () => (await import('../../server/http-schema.js')).httpJsonSchema(),
} satisfies Record<string, () => Promise<Record<string, unknown>>>;

type SchemaName = keyof typeof SCHEMAS;
export const SCHEMA_NAMES = Object.keys(SCHEMAS) as SchemaName[];

export function registerSchemaCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('schema')
    .description(
      'Print the JSON Schema of a file the arena reads, or of the HTTP request bodies (for editors and validators)',
    )
    .addArgument(new Argument('<name>', 'which file').choices(SCHEMA_NAMES));
  examples(command, [
    'arena schema scenario > scenario.schema.json',
    'arena schema target | jq .oneOf[].properties.kind',
    'arena schema strategy | jq .properties.election',
    'arena schema http | jq \'."$defs"["POST /api/v1/llm/chat"]\'',
  ]);
  command.addHelpText(
    'after',
    'The package ships each as schemas/<name>.schema.json. A YAML file whose first line is\n  # yaml-language-server: $schema=../schemas/scenario.schema.json\ngets completion and checks in editors that use the YAML language server.\n' +
      '`arena schema http` has one $defs entry per route that takes a JSON body, keyed "METHOD path".\n',
  );
  command.action(async (name: SchemaName) => {
    ctx.stdout.write(`${JSON.stringify(await SCHEMAS[name](), null, 2)}\n`);
  });
}
