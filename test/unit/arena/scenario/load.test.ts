import { describe, expect, it } from 'vitest';
import {
  checkScenarioText,
  loadScenario,
  validateScenario,
  MAX_SCENARIO_BYTES,
} from '../../../../src/arena/scenario/index.js';
import { UsageError } from '../../../../src/shared/errors.js';

const GOOD = `name: leader-failover
description: Kill the leader twice
tags: [failover]
config:
  stop_on_error: false
  parallel_actions: false
  max_concurrent: 3
  timeout: 2m
  warmup: 1s
  cooldown: 3s
  seed: 42
expect:
  min_score: 80
actions:
  - label: first-kill
    delay: 2s
    action: { type: kill_leader }
    expect_success: true
  - label: slow-worker
    delay: 1s
    action: { type: slow_agent, target_id: agent-2, metadata: { duration: 3s } }
    depends_on: [first-kill]
`;

describe('loadScenario', () => {
  it('loads the DESIGN §4 example with durations in ms', () => {
    const s = loadScenario(GOOD, 'x.yaml');
    expect(s).toMatchObject({
      name: 'leader-failover',
      tags: ['failover'],
      file: 'x.yaml',
      expect: { min_score: 80 },
      config: { timeout_ms: 120_000, warmup_ms: 1000, cooldown_ms: 3000, seed: 42, max_concurrent: 3 },
    });
    expect(s.actions[1]).toMatchObject({
      label: 'slow-worker',
      delay_ms: 1000,
      depends_on: ['first-kill'],
      action: { type: 'slow_agent', target_id: 'agent-2' },
    });
  });

  it('keeps the older format working: no labels, generated ones', () => {
    const s = loadScenario(
      `name: old\nactions:\n  - action: { type: kill_agent, target_id: agent-1 }\n    delay: 500\n  - action: { type: kill_leader }\n`,
    );
    expect(s.actions.map((a) => a.label)).toEqual(['kill_agent-1', 'kill_leader-2']);
    // no window stated: the defaults (DESIGN §5), so a run always measures something
    expect(s.config).toMatchObject({ parallel_actions: false, warmup_ms: 1000, cooldown_ms: 3000 });
  });

  it('reports every problem at once with path, line and column', () => {
    const text = `name: broken
colour: red
config:
  warmup: -1s
actions:
  - label: a
    action: { type: kill_agent }
  - label: a
    action: { type: explode, target_id: x }
  - label: c
    action: { type: slow_agent, target_id: agent-2, metadata: { duration: soon } }
    expect_success: true
    expect_failure: true
  - label: d
    action: { type: remove_edge, target_id: plan }
    depends_on: [nobody]
`;
    const { valid, errors } = checkScenarioText(text, 'f.yaml');
    expect(valid).toBe(false);
    const byPath = Object.fromEntries(errors.map((e) => [e.path, e]));
    expect(byPath.colour).toMatchObject({ line: 2, column: 1, message: expect.stringContaining('unknown key') });
    expect(byPath['config.warmup']).toMatchObject({ line: 4, message: expect.stringContaining('negative') });
    expect(byPath['actions[0].action.target_id']).toMatchObject({
      line: 7,
      message: expect.stringContaining('missing target'),
    });
    expect(byPath['actions[1].action.type']).toMatchObject({
      line: 9,
      message: expect.stringContaining('unknown action type'),
    });
    expect(byPath['actions[2].action.metadata.duration']).toMatchObject({ line: 11 });
    expect(byPath['actions[2].expect_failure']).toMatchObject({
      line: 13,
      message: expect.stringContaining('cannot both'),
    });
    expect(byPath['actions[3].action.source_id']).toBeDefined();
  });

  it('finds duplicate labels, unknown labels and cycles in depends_on', () => {
    const dup = checkScenarioText(
      `name: d\nactions:\n  - { label: a, action: { type: kill_leader } }\n  - { label: a, action: { type: kill_leader } }\n`,
    );
    expect(dup.errors).toContainEqual(
      expect.objectContaining({ path: 'actions[1].label', line: 4, message: expect.stringContaining('duplicate') }),
    );
    const unknown = checkScenarioText(
      `name: u\nactions:\n  - { label: a, action: { type: kill_leader }, depends_on: [zz] }\n`,
    );
    expect(unknown.errors).toContainEqual(
      expect.objectContaining({
        path: 'actions[0].depends_on[0]',
        message: expect.stringContaining('unknown label "zz"'),
      }),
    );
    const cycle = checkScenarioText(
      `name: c\nactions:\n  - { label: a, action: { type: kill_leader }, depends_on: [c] }\n  - { label: b, action: { type: kill_leader }, depends_on: [a] }\n  - { label: c, action: { type: kill_leader }, depends_on: [b] }\n`,
    );
    expect(cycle.errors).toContainEqual(expect.objectContaining({ message: 'depends_on cycle: a → c → b → a' }));
  });

  it('checks labels and depends_on even when other actions are invalid, and lists problems in file order', () => {
    const text = `name: mixed
actions:
  - label: first
    action: { type: kill_leader }
    depends_on: [nope]
  - label: slow
    action: { type: kill_leader }
  - label: slow
    action: { type: kill_leader }
    expect_success: true
    expect_failure: true
  - label: loop-a
    action: { type: explode }
    depends_on: [loop-b]
  - label: loop-b
    action: { type: kill_leader }
    depends_on: [loop-a]
`;
    const { valid, errors } = checkScenarioText(text, 'f.yaml');
    expect(valid).toBe(false);
    expect(errors.map((e) => [e.path, e.line])).toEqual(
      [
        ['actions[0].depends_on[0]', 5],
        ['actions[2].label', 8],
        ['actions[2].expect_failure', 11],
        ['actions[3].depends_on', 14],
        ['actions[3].action.type', 13],
      ].sort((a, b) => (a[1] as number) - (b[1] as number)),
    );
    expect(errors.find((e) => e.path === 'actions[0].depends_on[0]')!.message).toContain('unknown label "nope"');
    expect(errors.find((e) => e.path === 'actions[2].label')!.message).toContain('duplicate label "slow"');
    expect(errors.find((e) => e.path === 'actions[3].depends_on')!.message).toBe(
      'depends_on cycle: loop-a → loop-b → loop-a',
    );
    // strictly ordered by line, then column
    const keys = errors.map((e) => e.line! * 1000 + e.column!);
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect(() => loadScenario(text, 'f.yaml')).toThrow(/5 problem\(s\)/);
  });

  it('does not invent unknown-label errors when an item without a readable label could be the one meant', () => {
    const r = checkScenarioText(
      `name: m\nactions:\n  - { action: { target_id: agent-1 } }\n  - { label: b, action: { type: kill_leader }, depends_on: [kill_agent-1] }\n`,
    );
    expect(r.errors.map((e) => e.path)).toEqual(['actions[0].action.type']);
    // a non-mapping item has no label at all, so the reference is certainly unknown
    const s = checkScenarioText(
      `name: m\nactions:\n  - 42\n  - { label: b, action: { type: kill_leader }, depends_on: [zz] }\n`,
    );
    expect(s.errors.map((e) => e.path)).toEqual(['actions[0]', 'actions[1].depends_on[0]']);
  });

  it('reports YAML syntax errors with line:column', () => {
    const r = checkScenarioText('name: x\nactions: [\n  - a\n');
    expect(r.valid).toBe(false);
    expect(r.errors[0]).toMatchObject({ path: '(yaml)', line: expect.any(Number), column: expect.any(Number) });
  });

  it('rejects alias bombs without expanding them', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    const r = checkScenarioText(bomb);
    expect(r.valid).toBe(false);
    expect(r.errors[0]!.message).toMatch(/alias/i);
  });

  it('rejects input over 1 MiB', () => {
    const r = checkScenarioText(`name: big\n# ${'x'.repeat(MAX_SCENARIO_BYTES)}\n`);
    expect(r.errors[0]!.message).toMatch(/limit is 1048576/);
  });

  it('loadScenario throws a UsageError listing the problems; validateScenario works on objects', () => {
    expect(() => loadScenario('name: x\n', 'f.yaml')).toThrow(UsageError);
    expect(() => loadScenario('name: x\n', 'f.yaml')).toThrow(/f\.yaml:1:1 actions required/);
    expect(validateScenario({ name: 'x', actions: [{ action: { type: 'kill_leader' } }] }).valid).toBe(true);
    expect(validateScenario({ name: 'x', actions: [{ action: { type: 'kill_agent' } }] }).errors).toEqual([
      { path: 'actions[0].action.target_id', message: expect.stringContaining('missing target') },
    ]);
  });
});
