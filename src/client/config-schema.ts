/**
 * The client config file (`SimpleClient.fromConfigFile`), described once
 * (zod): it checks the shape of every field with its path and is the
 * published JSON Schema (`arena schema client-config`). The code-only options
 * (clock, env, workflow.agent_registry) are accepted in code and refused in a
 * file. What a shape cannot say — duplicate agent ids, a default agent that
 * exists, provider-dependent fields, sections an agent needs — is checked
 * after it, in config.ts.
 */
import { z } from 'zod';
import { publishedJsonSchema } from '../shared/json-schema.js';
import { durationSchema, says } from '../shared/zod-problems.js';
import { workflowSchema } from '../workflow/schema.js';

export const LLM_PROVIDERS = ['local', 'openai-compatible'] as const;

const text = z.string(says('must be a string'));
const nonEmpty = z.string(says('must be a non-empty string')).min(1, 'must be a non-empty string');
const required = says('required: a non-empty string');
const atLeast = (min: number) => {
  const words = says((v) => `must be an integer ≥ ${min} (got ${JSON.stringify(v)})`);
  return z.number(words).int(words).min(min, words);
};
const duration = durationSchema((problem) => `must be milliseconds or a duration such as "30s" up to 24h: ${problem}`);
const bool = z.boolean(says('must be true or false'));
/** the message for a value that is not a mapping; other issues of the mapping keep theirs */
const mapping = <S extends z.core.$ZodLooseShape>(shape: S, message: string) =>
  z.strictObject(shape, { error: (iss) => (iss.code === 'invalid_type' ? message : undefined) });

const providerShape = {
  provider: z
    .enum(
      LLM_PROVIDERS,
      says((v) => `must be one of ${LLM_PROVIDERS.join(', ')} (got ${JSON.stringify(v)})`),
    )
    .optional()
    .describe('default local (deterministic, offline)'),
  model: nonEmpty.optional(),
  base_url: nonEmpty.optional().describe('required for openai-compatible, e.g. http://127.0.0.1:8080/v1'),
  api_key_env: nonEmpty
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name (the key itself never goes in the file)')
    .optional()
    .describe('the environment variable that holds the API key (never the key itself)'),
  timeout_ms: duration.optional().describe('per-request timeout: milliseconds or a duration such as 30s'),
};
const llmWords = 'must be an object, e.g. { provider: local }';

const agentSchema = mapping(
  {
    id: z.string(required).refine((s) => s.trim() !== '', required),
    description: text.optional(),
    system_prompt: text.optional(),
    model: text.optional(),
    max_tokens: atLeast(1).optional(),
    memory: bool.optional().describe('keep the conversation in the memory service (needs a memory section)'),
    retrieval: z
      .union(
        [z.boolean(), atLeast(1)],
        says((v) => `must be an integer ≥ 1 (got ${JSON.stringify(v)})`),
      )
      .optional()
      .describe(
        'add the best matching documents from the retrieval service (needs a retrieval section); a number sets top_k',
      ),
  },
  'an agent must be an object with an `id`',
);

const strings = (message: string) => z.array(z.string(says(message)), says(message));
const stringMap = (message: string) => z.record(z.string(), z.string(says(message)), says(message));
const serverWords = 'must be an object with `transport: stdio | http`';
const serverSchema = z.discriminatedUnion(
  'transport',
  [
    z.strictObject({
      transport: z.literal('stdio'),
      name: text.optional(),
      command: z
        .string(says('required for a stdio server: the command to spawn'))
        .min(1, 'required for a stdio server: the command to spawn'),
      args: strings('must be a list of strings').optional(),
      env: stringMap('must map names to strings')
        .optional()
        .describe("added to the SDK's safe default environment (PATH, HOME...)"),
      cwd: text.optional(),
    }),
    z.strictObject({
      transport: z.literal('http'),
      name: text.optional(),
      url: z
        .string(says('required for an http server: an http(s) URL'))
        .regex(/^https?:\/\/\S+$/, 'required for an http server: an http(s) URL'),
      headers: stringMap('must map names to strings').optional(),
    }),
  ],
  {
    error: (iss) => {
      if (iss.code === 'invalid_union')
        return `must be stdio or http (got ${JSON.stringify((iss.input as { transport?: unknown } | undefined)?.transport)})`;
      return iss.code === 'invalid_type' ? serverWords : undefined;
    },
  },
);

const serversWords = 'required: at least one server by name';

const workflowSection = {
  max_parallel: atLeast(1).optional(),
  default_step_timeout_ms: duration.optional(),
  workflows: z
    .array(workflowSchema, says('must be a list of workflow definitions'))
    .optional()
    .describe('registered on the service when it is built'),
};
const sectionWords = 'must be an object (may be empty: {})';

/** the sections a file may hold; code passes a workflow section that may also hold a registry */
function fileShape<W extends z.ZodType>(workflow: W) {
  return {
    llm: mapping(
      {
        ...providerShape,
        retries: atLeast(0).optional(),
        backoff_ms: duration.optional(),
        fallback: mapping(providerShape, llmWords).optional(),
      },
      llmWords,
    ).optional(),
    mcp: mapping(
      {
        servers: z
          .record(z.string(), serverSchema, says(serversWords))
          .refine((s) => Object.keys(s).length > 0, serversWords)
          .describe('by name: { transport: stdio, command, args?, env?, cwd? } or { transport: http, url, headers? }'),
        request_timeout_ms: duration.optional().describe('per-request deadline (default 10s)'),
        reconnect: mapping(
          {
            enabled: bool.optional(),
            backoff_ms: duration.optional(),
            max_backoff_ms: duration.optional(),
            max_attempts: atLeast(1).optional(),
          },
          'must be an object',
        ).optional(),
      },
      'must be an object with `servers`',
    )
      .optional()
      .describe('MCP servers the client connects to on first use'),
    agents: z.array(agentSchema, says('must be a list of agents')).optional(),
    default_agent: z
      .string(says('must be the id of one of the agents'))
      .optional()
      .describe('id of the agent SimpleClient.execute uses; default the first'),
    memory: mapping(
      { max_messages_per_session: atLeast(1).optional(), max_sessions: atLeast(1).optional() },
      'must be an object (may be empty: {})',
    ).optional(),
    retrieval: mapping(
      {
        documents: z
          .array(
            z.looseObject(
              {
                id: z.string().optional(),
                text: z.string(says('must be an object with a `text` string')),
                metadata: z.record(z.string(), z.unknown()).optional(),
              },
              says('must be an object with a `text` string'),
            ),
            says('must be a list of {id?, text, metadata?}'),
          )
          .optional(),
        max_documents: atLeast(1).optional(),
      },
      'must be an object (may be empty: {})',
    ).optional(),
    workflow: workflow.optional(),
  };
}

const rootWords = 'the client config must be an object';

/** a config file */
export const clientConfigFileSchema = mapping(fileShape(mapping(workflowSection, sectionWords)), rootWords);

/** a config given in code: also the options only code can pass (a clock, an env object, an agent registry) */
export const clientConfigCodeSchema = mapping(
  {
    ...fileShape(mapping({ ...workflowSection, agent_registry: z.unknown().optional() }, sectionWords)),
    clock: z.unknown().optional(),
    env: z.unknown().optional(),
  },
  rootWords,
);

export function configUnknownKey(key: string, allowed: string[]): string {
  return `unknown key '${key}' (allowed: ${allowed.join(', ')})`;
}

/** `arena schema client-config`: the published JSON Schema of client config files. */
export function clientConfigJsonSchema(): Record<string, unknown> {
  return publishedJsonSchema(
    {
      name: 'client-config',
      title: 'Chaos Arena client config',
      description: 'LLM, MCP servers, agents, memory, retrieval and workflows of SimpleClient.fromConfigFile',
    },
    clientConfigFileSchema,
  );
}
