/**
 * The published JSON Schemas (schemas/*.schema.json) are generated from the zod schemas that
 * validate each file (one source): each file stays identical to its generator, names itself in
 * shipped files' first line for editors, and a third-party validator (ajv) accepts every shipped
 * file the arena accepts. The other way round cannot hold for rules a JSON Schema cannot state
 * (labels, cycles, duration units), so the property is: what the arena accepts, ajv accepts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { scenarioJsonSchema } from '../../../src/arena/scenario/schema.js';
import { validateScenario } from '../../../src/arena/scenario/validate.js';
import { checkScenarioText } from '../../../src/arena/scenario/load.js';
import { ANSWER_WORKFLOW } from '../../../src/bootstrap/workflows.js';
import { clientConfigJsonSchema } from '../../../src/client/config-schema.js';
import { validateClientConfig } from '../../../src/client/config.js';
import { STEADY_STATE_WORKFLOW } from '../../../src/runtime/steady-state.js';
import { strategyJsonSchema } from '../../../src/runtime/strategy-schema.js';
import { parseStrategy, parseStrategyText } from '../../../src/runtime/strategy.js';
import { targetJsonSchema } from '../../../src/targets/schema.js';
import { checkTargetText } from '../../../src/targets/file.js';
import { workflowJsonSchema } from '../../../src/workflow/schema.js';
import { validateWorkflow } from '../../../src/workflow/validate.js';
import { SCHEMA_NAMES } from '../../../src/cli/commands/schema.js';
import { httpJsonSchema } from '../../../src/server/http-schema.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const yamlIn = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => `${dir}/${f}`);

const GENERATORS: Record<string, () => Record<string, unknown>> = {
  scenario: scenarioJsonSchema,
  strategy: strategyJsonSchema,
  target: targetJsonSchema,
  workflow: workflowJsonSchema,
  'client-config': clientConfigJsonSchema,
  http: httpJsonSchema,
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = Object.fromEntries(Object.entries(GENERATORS).map(([name, make]) => [name, ajv.compile(make())]));
const ajvAccepts = (name: string, value: unknown) => {
  const validate = validators[name]!;
  return { ok: validate(value) as boolean, errors: JSON.stringify(validate.errors) };
};

/** the arena's own verdict on text, per file kind: [] when it accepts */
const ARENA: Record<string, (text: string) => string[]> = {
  scenario: (text) => checkScenarioText(text).errors.map((e) => `${e.path}: ${e.message}`),
  strategy: (text) => {
    try {
      parseStrategyText(text);
      return [];
    } catch (err) {
      return [(err as Error).message];
    }
  },
  target: (text) => checkTargetText(text).problems.map((p) => `${p.path}: ${p.message}`),
};

const SHIPPED: Array<[string, string]> = [
  ...yamlIn('scenarios').map((f): [string, string] => [f, 'scenario']),
  ...yamlIn('examples/fleet/scenarios').map((f): [string, string] => [f, 'scenario']),
  ...yamlIn('examples/llm-agent/scenarios').map((f): [string, string] => [f, 'scenario']),
  ...yamlIn('strategies').map((f): [string, string] => [f, 'strategy']),
  ...['examples/fleet', 'examples/fleet-bug', 'examples/llm-agent'].flatMap((d) =>
    yamlIn(d).map((f): [string, string] => [f, 'target']),
  ),
];

describe('published JSON Schemas', () => {
  it('`arena schema` offers exactly the published names', () => {
    expect([...SCHEMA_NAMES].sort()).toEqual(Object.keys(GENERATORS).sort());
  });

  it.each(Object.keys(GENERATORS))('schemas/%s.schema.json is what `arena schema` generates', (name) => {
    expect(JSON.parse(read(`schemas/${name}.schema.json`))).toEqual(GENERATORS[name]!());
  });

  it('covers every shipped scenario, strategy and target file', () => {
    expect(SHIPPED.filter(([, kind]) => kind === 'scenario').length).toBeGreaterThanOrEqual(10);
    expect(SHIPPED.filter(([, kind]) => kind === 'strategy').length).toBe(3);
    expect(SHIPPED.filter(([, kind]) => kind === 'target').length).toBe(4);
  });

  it.each(SHIPPED)('%s: the arena and ajv accept it, and its first line names its schema', (path, kind) => {
    const text = read(path);
    expect(ARENA[kind]!(text)).toEqual([]);
    const verdict = ajvAccepts(kind, parse(text));
    expect(verdict.ok, verdict.errors).toBe(true);
    const first = text.split('\n')[0]!;
    expect(first).toMatch(new RegExp(`^# yaml-language-server: \\$schema=(\\.\\./)+schemas/${kind}\\.schema\\.json$`));
    expect(existsSync(join(root, dirname(path), first.split('=')[1]!))).toBe(true);
  });

  it('the built-in workflows and the HTTP API reference workflow body are valid for both', () => {
    const body = /-d '(\{"id":"two".*?\})'/.exec(read('docs/reference/http-api.md'));
    expect(body, 'the HTTP API reference has the POST /api/v1/workflows example').not.toBeNull();
    for (const def of [ANSWER_WORKFLOW, STEADY_STATE_WORKFLOW, JSON.parse(body![1]!)]) {
      expect(validateWorkflow(def).errors).toEqual([]);
      const verdict = ajvAccepts('workflow', JSON.parse(JSON.stringify(def)));
      expect(verdict.ok, verdict.errors).toBe(true);
    }
  });

  it("the library guide's client.yaml is valid for both", () => {
    const block = /```yaml\n(# client\.yaml\n[\s\S]*?)```/.exec(read('docs/guides/library.md'));
    expect(block, 'the library guide has the client.yaml example').not.toBeNull();
    const config = parse(block![1]!);
    expect(validateClientConfig(config)).toEqual([]);
    const verdict = ajvAccepts('client-config', config);
    expect(verdict.ok, verdict.errors).toBe(true);
  });

  it('both refuse an unknown key, a wrong type and a missing required field, in every file kind', () => {
    const cases: Array<[string, unknown, (v: unknown) => boolean]> = [
      [
        'scenario',
        { name: 'x', actions: [{ action: { type: 'kill_agent', target_id: 'a' } }], colour: 1 },
        (v) => validateScenario(v).valid,
      ],
      [
        'scenario',
        { name: 'x', actions: [{ action: { type: 'explode', target_id: 'a' } }] },
        (v) => validateScenario(v).valid,
      ],
      [
        'scenario',
        { name: 'x', actions: [{ action: { type: 'pause_agent', target_id: 'a', metadata: { duraton: '1s' } } }] },
        (v) => validateScenario(v).valid,
      ],
      ['scenario', { actions: [{ action: { type: 'kill_agent', target_id: 'a' } }] }, (v) => validateScenario(v).valid],
      ['strategy', { election: { lease: 5 } }, strategyOk],
      ['strategy', { supervisor: { enabled: 'yes' } }, strategyOk],
      ['strategy', { dag: { recovery: 'pray' } }, strategyOk],
      ['workflow', { id: 'w', steps: [{ id: 'a', agent_type: 'echo', colour: 1 }] }, (v) => validateWorkflow(v).valid],
      [
        'workflow',
        { id: 'w', steps: [{ id: 'a', agent_type: 'echo', retries: -1 }] },
        (v) => validateWorkflow(v).valid,
      ],
      ['workflow', { steps: [{ id: 'a', agent_type: 'echo' }] }, (v) => validateWorkflow(v).valid],
      ['client-config', { llm: { provider: 'magic' } }, (v) => validateClientConfig(v).length === 0],
      ['client-config', { agents: [{ id: 'a', temperature: 2 }] }, (v) => validateClientConfig(v).length === 0],
      ['client-config', { env: { A: 'b' } }, (v) => validateClientConfig(v).length === 0 && !('env' in (v as object))],
      ['client-config', { mcp: { servers: { s: { transport: 'ws' } } } }, (v) => validateClientConfig(v).length === 0],
    ];
    for (const [kind, value, arenaAccepts] of cases) {
      expect(arenaAccepts(value), `${kind} ${JSON.stringify(value)}`).toBe(false);
      expect(ajvAccepts(kind, value).ok, `${kind} ${JSON.stringify(value)}`).toBe(false);
    }
  });
});

function strategyOk(v: unknown): boolean {
  try {
    parseStrategy(v);
    return true;
  } catch {
    return false;
  }
}

// generated documents: mostly valid values, now and then a wrong type, an unknown key or an edge case
const pick = (valid: unknown[], invalid: unknown[]) =>
  fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...valid) }, { weight: 1, arbitrary: fc.constantFrom(...invalid) });
const maybe = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
/** a record without its undefined keys (an absent key, as in a file) */
const compact = (arb: fc.Arbitrary<Record<string, unknown>>) =>
  arb.map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
const durationArb = pick([0, 250, '250ms', '2s', '1m30s', '24h'], ['25h', 'soon', -5, 1.5, true, null]);
const countArb = pick([1, 3], [0, -1, 1.5, '2', null]);
const stringArb = pick(['a', 'b'], ['', ' ', 5, null]);

describe('what the arena accepts, ajv accepts (generated documents)', () => {
  it('scenarios', () => {
    const action = fc.oneof(
      compact(
        fc.record(
          {
            type: pick(['kill_agent', 'pause_agent'], ['explode']),
            target_id: pick(['agent-1', 'random'], ['', 3]),
            metadata: maybe(fc.record({ duration: durationArb })),
          },
          { requiredKeys: ['type', 'target_id'] },
        ),
      ),
      compact(
        fc.record({ type: fc.constant('kill_leader'), target_id: pick([''], ['agent-1']) }, { requiredKeys: ['type'] }),
      ),
      compact(
        fc.record({
          type: fc.constant('slow_agent'),
          target_id: fc.constant('agent-2'),
          metadata: fc.record({ duration: durationArb, delay: durationArb }, { requiredKeys: [] }),
        }),
      ),
      compact(
        fc.record({
          type: fc.constant('llm_failure'),
          target_id: fc.constant('agent-2'),
          metadata: fc.record({ error_type: pick(['timeout', 'rate_limit'], ['nope']) }),
        }),
      ),
      compact(
        fc.record({
          type: fc.constant('remove_edge'),
          target_id: pick(['plan'], ['random']),
          source_id: pick(['fetch'], ['']),
        }),
      ),
    );
    const step = compact(
      fc.record(
        {
          label: maybe(pick(['a'], ['bad label'])),
          delay: durationArb,
          action,
          expect_success: pick([true, false], ['y']),
          depends_on: maybe(pick(['zzz'], [[1], 5])),
          colour: maybe(fc.constant(1)),
        },
        { requiredKeys: ['action'] },
      ),
    );
    const config = compact(
      fc.record(
        {
          warmup: durationArb,
          timeout: pick([1, '5s'], [0, 'soon']),
          seed: pick([1, 42], [-1, 1.5]),
          max_concurrent: countArb,
          target: stringArb,
          stop_on_error: pick([true], [1]),
        },
        { requiredKeys: [] },
      ),
    );
    const doc = compact(
      fc.record(
        {
          name: stringArb,
          tags: pick([['x'], []], [[1], 'x']),
          config,
          expect: fc.record({ min_score: pick([0, 50], [101, '5']) }),
          actions: fc.array(step, { minLength: 1, maxLength: 3 }),
        },
        { requiredKeys: ['name', 'actions'] },
      ),
    );
    agree('scenario', doc, (v) => validateScenario(v).valid);
  });

  it('strategies', () => {
    const doc = compact(
      fc.record(
        {
          election: fc.record(
            {
              enabled: pick([true, false], ['yes']),
              lease_ms: pick(['1s', 900], [0, 'soon']),
              renew_interval_ms: pick([100, '50ms'], [-1]),
            },
            { requiredKeys: [] },
          ),
          llm: fc.record(
            { retries: pick([0, 2], [-1, 1.5]), backoff_ms: durationArb, fallback: pick([false, true], [0]) },
            { requiredKeys: [] },
          ),
          dag: fc.record(
            { recovery: pick(['retry', 'fail_fast'], ['pray']), step_retries: countArb },
            { requiredKeys: [] },
          ),
          workload: fc.record({ rate: pick([0, 5.5, 10_000], [10_001, -1]) }, { requiredKeys: [] }),
          colour: maybe(fc.constant({})),
        },
        { requiredKeys: [] },
      ),
    );
    agree('strategy', doc, strategyOk);
  });

  it('workflows', () => {
    const stepDoc = (id: string) =>
      compact(
        fc.record(
          {
            id: pick([id], ['', 5]),
            agent_type: stringArb,
            depends_on: maybe(pick([['s0']], [['s0', 's0'], 's0', [1]])),
            timeout_ms: maybe(countArb),
            retries: maybe(pick([0, 2], [-1])),
            input: maybe(fc.constantFrom('x', { q: 1 })),
          },
          { requiredKeys: ['id', 'agent_type'] },
        ),
      );
    const doc = compact(
      fc.record(
        {
          id: stringArb,
          steps: fc.tuple(stepDoc('s1'), stepDoc('s2')),
          recovery: maybe(pick(['retry', 'fail_fast'], ['nope'])),
          max_parallel: maybe(countArb),
          output_step: maybe(pick(['s1'], ['z', 1])),
          colour: maybe(fc.constant(1)),
        },
        { requiredKeys: ['id', 'steps'] },
      ),
    );
    agree(
      'workflow',
      doc.map((d) => ({ ...d, steps: [{ id: 's0', agent_type: 'echo' }, ...(d.steps as unknown[])] })),
      (v) => validateWorkflow(v).valid,
    );
  });

  it('client configs', () => {
    const provider = fc.oneof(
      compact(
        fc.record(
          { provider: pick(['local'], ['x']), timeout_ms: durationArb, retries: maybe(countArb) },
          { requiredKeys: [] },
        ),
      ),
      compact(
        fc.record(
          {
            provider: fc.constant('openai-compatible'),
            model: stringArb,
            base_url: pick(['http://127.0.0.1:1/v1'], ['ftp://x', '']),
            api_key_env: pick(['KEY'], ['1A']),
          },
          { requiredKeys: [] },
        ),
      ),
    );
    const agent = compact(
      fc.record(
        {
          id: stringArb,
          max_tokens: maybe(countArb),
          memory: maybe(pick([true, false], ['y'])),
          retrieval: maybe(pick([true, 3], [0])),
        },
        { requiredKeys: ['id'] },
      ),
    );
    const server = fc.oneof(
      compact(
        fc.record(
          { transport: fc.constant('stdio'), command: stringArb, args: maybe(pick([['-v']], [[1]])) },
          { requiredKeys: ['transport', 'command'] },
        ),
      ),
      compact(
        fc.record(
          { transport: pick(['http'], ['ws']), url: pick(['http://127.0.0.1:1/mcp'], ['x']) },
          { requiredKeys: ['transport', 'url'] },
        ),
      ),
    );
    const doc = compact(
      fc.record(
        {
          llm: provider,
          agents: fc.array(agent, { maxLength: 2 }),
          default_agent: maybe(stringArb),
          memory: pick([{}, { max_sessions: 2 }], [{ max_sessions: 0 }, 5]),
          retrieval: pick([{}, { documents: [{ text: 'x' }] }], [{ documents: [{ id: 'd' }] }]),
          mcp: maybe(
            compact(
              fc.record(
                {
                  servers: fc.dictionary(fc.constantFrom('one', 'two'), server, { minKeys: 1, maxKeys: 2 }),
                  request_timeout_ms: durationArb,
                },
                { requiredKeys: ['servers'] },
              ),
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    agree('client-config', doc, (v) => validateClientConfig(v).length === 0);
  });
});

/** for every generated document the arena accepts, ajv accepts it too; and both verdicts occur */
function agree(kind: string, arbitrary: fc.Arbitrary<unknown>, arenaAccepts: (v: unknown) => boolean): void {
  let accepted = 0;
  let refused = 0;
  fc.assert(
    fc.property(arbitrary, (doc) => {
      if (!arenaAccepts(doc)) {
        refused += 1;
        return;
      }
      accepted += 1;
      const verdict = ajvAccepts(kind, doc);
      expect(verdict.ok, `${JSON.stringify(doc)}\n${verdict.errors}`).toBe(true);
    }),
    { numRuns: 300, seed: 15 },
  );
  expect(accepted, 'some generated documents are valid').toBeGreaterThan(0);
  expect(refused, 'some generated documents are invalid').toBeGreaterThan(0);
}
