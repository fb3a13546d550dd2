/**
 * schemas/http.schema.json is generated from the zod schemas the routes parse their bodies with:
 * every example body of the HTTP API reference (docs/reference/http-api.md) passes both the route's own parser and ajv (reaching the
 * entry by its JSON pointer, as a client would), and bodies with an unknown key, a wrong type or a
 * missing required field fail both.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../src/server/body.js';
import { httpBodies, httpJsonSchema } from '../../../src/server/http-schema.js';

const readme = readFileSync(new URL('../../../docs/reference/http-api.md', import.meta.url), 'utf8');
const bodies = httpBodies();
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(httpJsonSchema());

/** the published entry, reached by its JSON pointer (a "/" in the key is "~1") */
function ajvCheck(route: string, value: unknown): { ok: boolean; errors: string } {
  const validate = ajv.getSchema(
    `urn:chaos-arena:schema:http#/$defs/${encodeURIComponent(route.replaceAll('~', '~0').replaceAll('/', '~1'))}`,
  );
  if (!validate) throw new Error(`no $defs entry for ${route}`);
  return { ok: validate(value) as boolean, errors: JSON.stringify(validate.errors) };
}

function routeAccepts(route: string, value: unknown): boolean {
  try {
    parseWith(bodies[route]!, value);
    return true;
  } catch {
    return false;
  }
}

/** the HTTP API reference's table rows: `| \`POST /path\` … | \`curl … -d '{…}'\` |` */
const EXAMPLES = [...readme.matchAll(/^\| `(POST \S+)`.*? -d '(\{.*?\})'/gm)]
  .map((m) => [m[1]!, m[2]!] as const)
  .filter(([route]) => route in bodies);

describe('arena schema http', () => {
  it('has one entry per route that takes a body, each reachable by its pointer', () => {
    const defs = httpJsonSchema().$defs as Record<string, unknown>;
    expect(Object.keys(defs).sort()).toEqual(Object.keys(bodies).sort());
    expect(defs['POST /api/v1/workflows/{id}/execute']).toBeDefined();
    expect(defs['POST /arena/edge/remove']).toBeDefined();
    // routes that take no body are absent
    expect(defs['POST /arena/agent/{id}/kill']).toBeUndefined();
    expect(defs['POST /api/v1/runtime/start']).toBeUndefined();
    for (const route of Object.keys(bodies)) expect(() => ajvCheck(route, {})).not.toThrow();
  });

  it('every route it lists is one the HTTP API reference documents', () => {
    const documented = new Set([...readme.matchAll(/`(POST \/\S+)`/g)].map((m) => m[1]!));
    expect(Object.keys(bodies).filter((route) => !documented.has(route))).toEqual([]);
  });

  it('finds the HTTP API reference examples', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(EXAMPLES)('HTTP API reference example for %s passes the route and ajv', (route, json) => {
    const value: unknown = JSON.parse(json);
    expect(routeAccepts(route, value)).toBe(true);
    const verdict = ajvCheck(route, value);
    expect(verdict.ok, verdict.errors).toBe(true);
  });

  it('an unknown key, a wrong type or a missing required field fails both', () => {
    const cases: Array<[string, unknown]> = [
      ['POST /api/v1/llm/chat', { messages: [{ role: 'user', content: 'hi' }], temperature: 1 }],
      ['POST /api/v1/llm/chat', { messages: [{ role: 'robot', content: 'hi' }] }],
      ['POST /api/v1/llm/chat', { messages: [] }],
      ['POST /api/v1/llm/generate', { max_tokens: 5 }],
      ['POST /api/v1/agents/{id}/chat', { message: 5 }],
      ['POST /api/v1/memory/sessions/{id}/messages', { role: 'user' }],
      ['POST /api/v1/retrieval/documents', { documents: [{ txt: 'x' }] }],
      ['POST /api/v1/retrieval/search', { query: 'x', top_k: 0 }],
      ['POST /api/v1/stream', { query: 'x', options: { top_k: 21 } }],
      ['POST /api/v1/workflows/{id}/execute', { inputs: {} }],
      ['POST /api/v1/flight/replay', { all: false }],
      ['POST /arena/edge/remove', { from: 'plan' }],
      ['POST /arena/agent/{id}/llm-failure', { error_type: 'gremlins' }],
      ['POST /arena/survival', { seed: -1 }],
      ['POST /api/v1/workflows', []],
    ];
    for (const [route, value] of cases) {
      expect(routeAccepts(route, value), `${route} ${JSON.stringify(value)}`).toBe(false);
      expect(ajvCheck(route, value).ok, `${route} ${JSON.stringify(value)}`).toBe(false);
    }
  });
});
