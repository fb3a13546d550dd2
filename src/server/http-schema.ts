/**
 * The published JSON Schema of the HTTP API's request bodies (`arena schema
 * http`, schemas/http.schema.json): one `$defs` entry per route that takes a
 * JSON body, keyed "METHOD path" as DESIGN §7 spells it, generated from the
 * very zod schemas the routes validate with (one source). Routes that take no
 * body are absent; so are the scenario routes (their body is a scenario file:
 * `arena schema scenario`) and `POST /arena/actions` (an Action, checked by
 * the action parser, not a zod schema).
 */
import { jsonSchemaBody, publishedJsonSchema } from '../shared/json-schema.js';
import { z } from './body.js';
import { FAULT_ROUTES } from './arena-fault-routes.js';
import { Survival } from './arena-requests.js';
import { AgentChat, CreateAgent } from './groups/agent.js';
import { Evaluate } from './groups/eval.js';
import { RunOptions } from './groups/evolution.js';
import { Replay } from './groups/flight.js';
import { Generate, LlmChat } from './groups/llm.js';
import { AddMessage, CreateSession } from './groups/memory.js';
import { Document, Documents, Search } from './groups/retrieval.js';
import { StrategyPatch, ToolCall } from './groups/runtime.js';
import { StreamBody } from './groups/stream.js';
import { Execute, WorkflowDefinition } from './groups/workflow.js';

/** every route that takes a body, and the schema its handler parses it with */
export function httpBodies(): Record<string, z.ZodType> {
  const faults = Object.values(FAULT_ROUTES).flatMap((r) =>
    r.body ? [[`POST /arena${r.path}`, r.body] as const] : [],
  );
  return {
    ...Object.fromEntries(faults),
    'POST /arena/survival': Survival,
    'POST /api/v1/stream': StreamBody,
    'POST /api/v1/evolution/runs': RunOptions,
    'POST /api/v1/runtime-evolution/runs': RunOptions,
    'POST /api/v1/workflows': WorkflowDefinition,
    'POST /api/v1/workflows/{id}/execute': Execute,
    'POST /api/v1/agents': CreateAgent,
    'POST /api/v1/agents/{id}/chat': AgentChat,
    'POST /api/v1/memory/sessions': CreateSession,
    'POST /api/v1/memory/sessions/{id}/messages': AddMessage,
    'POST /api/v1/runtime/strategy': StrategyPatch,
    'POST /api/v1/runtime/mcp/tools/{name}/call': ToolCall,
    // the route tells the two forms apart by a `documents` key
    'POST /api/v1/retrieval/documents': z.union([Document, Documents]),
    'POST /api/v1/retrieval/search': Search,
    'POST /api/v1/eval/evaluate': Evaluate,
    'POST /api/v1/flight/replay': Replay,
    'POST /api/v1/llm/chat': LlmChat,
    'POST /api/v1/llm/generate': Generate,
  };
}

export function httpJsonSchema(): Record<string, unknown> {
  const $defs = Object.fromEntries(
    Object.entries(httpBodies()).map(([route, schema]) => [route, jsonSchemaBody(schema)]),
  );
  return {
    ...publishedJsonSchema(
      {
        name: 'http',
        title: 'Chaos Arena HTTP request bodies',
        description:
          'The JSON body of each route of `arena serve` that takes one, under $defs keyed "METHOD path" (arena routes are served under /arena and again under /api/v1/arena). A JSON pointer to one escapes "/" as "~1": #/$defs/POST%20~1api~1v1~1llm~1chat.',
      },
      z.unknown(),
    ),
    $defs,
  };
}
