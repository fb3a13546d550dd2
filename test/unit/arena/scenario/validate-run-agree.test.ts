/**
 * Property: `arena scenario validate` exits 0 or 2 for any document, never
 * with a stack, and a document it accepts never fails at run time on
 * validation grounds (a UsageError from the target, a timer value Node would
 * misread). Generated documents mix valid values with the edge cases that
 * used to slip through: 99999h, 1h1h, .inf, delay 0, target_id on kill_leader.
 */
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runWith } from '../../../../src/cli/main.js';
import { checkScenarioText } from '../../../../src/arena/scenario/load.js';
import { ACTION_PARAMETERS, createAction } from '../../../../src/arena/actions.js';
import { Injector } from '../../../../src/arena/injector.js';
import { ACTION_TYPES } from '../../../../src/arena/action.js';
import { ManualClock } from '../../../../src/shared/clock.js';
import { UsageError } from '../../../../src/shared/errors.js';
import { createEmbeddedTarget } from '../../../../src/targets/embedded/index.js';
import type { Target } from '../../../../src/arena/providers.js';
import type { Scenario } from '../../../../src/arena/scenario/types.js';

const durationArb = fc.oneof(
  fc.constantFrom(
    0,
    1,
    250,
    '0',
    '0ms',
    '2s',
    '1m30s',
    '24h',
    '25h',
    '99999h',
    '1h1h',
    '30s1m',
    '1.5s',
    'soon',
    '',
    -5,
    '-1s',
    1.5,
    Infinity,
    -Infinity,
    NaN,
    86_400_000,
    86_400_001,
    2 ** 31,
    Number.POSITIVE_INFINITY,
    null,
  ),
  fc.nat({ max: 10_000 }),
  fc.nat({ max: 5000 }).map((n) => `${n}ms`),
);

const targetArb = fc.constantFrom(
  'agent-1',
  'agent-2',
  'agent-3',
  'orchestrator-1',
  'agent-9',
  'random',
  'fetch',
  'plan',
  'answer',
  '',
);
const metadataArb = fc.record(
  {
    duration: durationArb,
    delay: durationArb,
    error_type: fc.constantFrom('rate_limit', 'timeout', 'nope'),
    extra: fc.constant(1),
  },
  { requiredKeys: [] },
);
const actionArb = fc.record(
  {
    type: fc.constantFrom(...ACTION_TYPES, 'explode'),
    target_id: targetArb,
    source_id: targetArb,
    metadata: metadataArb,
  },
  { requiredKeys: ['type'] },
);
const stepArb = fc.record(
  {
    label: fc.constantFrom('a', 'b', 'c', 'bad label'),
    delay: durationArb,
    action: actionArb,
    expect_success: fc.boolean(),
    depends_on: fc.constantFrom(['a'], ['b'], 'c', ['zzz']),
  },
  { requiredKeys: ['action'] },
);
const configArb = fc.record(
  {
    warmup: durationArb,
    cooldown: durationArb,
    timeout: durationArb,
    recovery_deadline: durationArb,
    seed: fc.constantFrom(1, 42, -1),
    max_concurrent: fc.constantFrom(1, 3, 0),
    parallel_actions: fc.boolean(),
  },
  { requiredKeys: [] },
);
const scenarioArb = fc.record(
  {
    name: fc.constantFrom('prop', '', 7),
    config: configArb,
    actions: fc.array(stepArb, { minLength: 0, maxLength: 4 }),
  },
  { requiredKeys: ['actions'] },
);

// near-valid documents: the half where validate says yes and the run must agree
const validDurationArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(0, 1, '0ms', '2s', '1m30s', '24h', 86_400_000, '23h59m59s999ms', '1.5s') },
  { weight: 3, arbitrary: fc.nat({ max: 5000 }) },
  { weight: 1, arbitrary: durationArb },
);
// slow_agent and the self-targeting kills are where validate and run used to disagree
const nearValidActionArb = fc
  .constantFrom(...ACTION_TYPES, 'slow_agent', 'slow_agent', 'slow_agent', 'kill_leader', 'kill_orchestrator')
  .chain((type) =>
    fc.record(
      {
        type: fc.constant(type),
        target_id:
          type === 'kill_leader' || type === 'kill_orchestrator'
            ? fc.constantFrom('', 'agent-1')
            : type.startsWith('remove_')
              ? fc.constantFrom('plan', 'answer', 'random')
              : fc.constantFrom('agent-1', 'agent-2', 'agent-9', 'random'),
        source_id: type === 'remove_edge' ? fc.constantFrom('fetch', 'plan') : fc.constantFrom('', 'plan'),
        metadata: fc.record(
          Object.fromEntries(
            ACTION_PARAMETERS[type].map((k) => [
              k,
              k === 'error_type' ? fc.constantFrom('rate_limit', 'timeout') : validDurationArb,
            ]),
          ),
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: type === 'remove_edge' ? ['type', 'target_id', 'source_id'] : ['type', 'target_id'] },
    ),
  );
const nearValidArb = fc.record({
  name: fc.constant('prop'),
  config: fc.record(
    { warmup: validDurationArb, cooldown: validDurationArb, timeout: validDurationArb },
    { requiredKeys: [] },
  ),
  actions: fc.array(fc.record({ delay: validDurationArb, action: nearValidActionArb }, { requiredKeys: ['action'] }), {
    minLength: 1,
    maxLength: 3,
  }),
});

// the same document as a file could also arrive: CR-only line endings, two documents, deep nesting
const textShapeArb = fc.constantFrom<(text: string) => string>(
  (t) => t,
  (t) => t.replace(/\n/g, '\r'),
  (t) => `${t}---\n${t}`,
  (t) => `${t}extra: ${'['.repeat(3000)}${']'.repeat(3000)}\n`,
);

let dir: string;
beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), 'arena-prop-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let target: Target | undefined;
afterEach(async () => {
  await target?.stop();
  target = undefined;
});

function sink() {
  let text = '';
  return {
    write: (s: string) => void (text += s),
    get text() {
      return text;
    },
  };
}

describe('validate and run agree', () => {
  it('validate exits 0 or 2 for any generated document, never with a stack', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb, textShapeArb, async (doc, shape) => {
        const file = join(dir, `s${n++}.yaml`);
        writeFileSync(file, shape(stringify(doc)));
        const stdout = sink();
        const stderr = sink();
        const code = await runWith(['scenario', 'validate', file], {
          stdout,
          stderr,
          env: {},
          cwd: dir,
          signal: new AbortController().signal,
        });
        expect([0, 2]).toContain(code);
        expect(stderr.text + stdout.text).not.toMatch(
          /unexpected error|\n\s+at \S+ \(|Maximum call stack|parseAllDocuments/,
        );
      }),
      { seed: 20261123, numRuns: 80 },
    );
  });

  it('a document validate accepts does not fail at run time on validation grounds', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 4, arbitrary: nearValidArb }, { weight: 1, arbitrary: scenarioArb }),
        async (doc) => {
          const result = checkScenarioText(stringify(doc));
          if (!result.valid) return;
          accepted += 1;
          await expectRunsWithoutValidationErrors(result.scenario!);
        },
      ),
      { seed: 7, numRuns: 150 },
    );
    // the generator must reach the interesting half, or the property says nothing
    expect(accepted).toBeGreaterThan(10);
  });
});

/** Arms every timing on a checking clock and applies every action to a real embedded target. */
async function expectRunsWithoutValidationErrors(scenario: Scenario): Promise<void> {
  const clock = new ManualClock();
  const cfg = scenario.config;
  for (const ms of [
    cfg.warmup_ms,
    cfg.cooldown_ms,
    cfg.timeout_ms ?? 0,
    cfg.recovery_deadline_ms ?? 0,
    ...scenario.actions.map((a) => a.delay_ms),
  ]) {
    clock.setTimer(ms, () => undefined).cancel(); // throws for a value Node would misread
  }
  target = createEmbeddedTarget({ clock });
  await target.start();
  const injector = new Injector(target.runtime, target.dag);
  for (const step of scenario.actions) {
    const spec = step.action;
    // nothing accepted is silently ignored: a kill that finds its own target names none, only remove_edge has a source
    if (spec.type === 'kill_leader' || spec.type === 'kill_orchestrator') expect(spec.target_id ?? '').toBe('');
    if (spec.type !== 'remove_edge') expect(spec.source_id ?? '').toBe('');
    const id = spec.target_id === 'random' ? 'agent-2' : (spec.target_id ?? '');
    const action = createAction(spec.type, id, {
      ...(spec.source_id !== undefined ? { source_id: spec.source_id } : {}),
      ...(spec.metadata ? { metadata: spec.metadata } : {}),
    });
    try {
      await injector.apply(action);
    } catch (err) {
      // the target may refuse for what it is right now (agent down, already paused); never for the input
      if (err instanceof UsageError || err instanceof RangeError) {
        throw new Error(`validate accepted ${JSON.stringify(step)} but the run refused it: ${(err as Error).message}`);
      }
    }
  }
  await target.stop();
  target = undefined;
}
