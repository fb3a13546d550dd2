import { describe, expect, it } from 'vitest';
import { replayPlanFromReport } from '../../../../src/arena/survival/replay.js';
import { survivalToScenario } from '../../../../src/arena/survival/to-scenario.js';
import { checkScenarioText } from '../../../../src/arena/scenario/load.js';
import { survivalToScenarioYaml } from '../../../../src/arena/survival/to-scenario.js';
import { UsageError } from '../../../../src/shared/errors.js';
import { sampleScenario, sampleSurvival, sampleOutcome } from '../../cli/sample-reports.js';

describe('replayPlanFromReport', () => {
  it('reads a survival document into its timeline, sorted by planned time', () => {
    const plan = replayPlanFromReport({ schema_version: 1, survival: sampleSurvival() });
    expect(plan).toMatchObject({ kind: 'survival', name: 'survival', seed: 7 });
    expect(plan.timeline.map((t) => t.planned_at)).toEqual([0, 100, 200]);
    expect(plan.timeline[0]!.action).toMatchObject({ type: 'slow_agent', target_id: 'agent-2' });
  });

  it('reads a scenario document, leaving out actions the scenario skipped; picks by name', () => {
    const skipped = sampleOutcome('skip-me', false, 'none', null);
    skipped.result = { ...skipped.result, duration_ms: 0, error: 'skipped: depends on "x", which failed' };
    const doc = {
      schema_version: 1,
      scenarios: [
        sampleScenario({ results: [sampleOutcome('a', true, 'none', null), skipped] }),
        sampleScenario({ name: 'other' }),
      ],
    };
    expect(() => replayPlanFromReport(doc)).toThrow(/holds 2 scenarios.*--scenario NAME/);
    const plan = replayPlanFromReport(doc, 'r.json', 'leader-failover');
    expect(plan).toMatchObject({ kind: 'scenario', name: 'leader-failover', seed: 42 });
    expect(plan.timeline).toHaveLength(1);
  });

  it('names every problem with its path', () => {
    const bad = {
      schema_version: 1,
      survival: {
        seed: 1,
        timeline: [
          { planned_at: -1, action: { type: 'explode' } },
          { planned_at: 5, action: { type: 'kill_agent' } },
        ],
      },
    };
    expect(() => replayPlanFromReport(bad, 'r.json')).toThrow(UsageError);
    expect(() => replayPlanFromReport(bad, 'r.json')).toThrow(
      /r\.json: survival\.timeline\[0\]: planned time.*timeline\[0\]\.action\.type: unknown action type "explode".*timeline\[1\]\.action\.target_id: missing target/,
    );
    expect(() => replayPlanFromReport({ schema_version: 2, survival: {} })).toThrow('unsupported schema_version 2');
    expect(() => replayPlanFromReport([])).toThrow('not a report document');
  });
});

describe('survival timeline → scenario', () => {
  it('keeps kinds, targets, parameters and spacing, and the YAML validates', () => {
    const report = sampleSurvival();
    report.timeline[1]!.action = {
      ...report.timeline[1]!.action,
      type: 'remove_edge',
      target_id: 'plan',
      source_id: 'fetch',
    };
    report.timeline[2]!.action = { ...report.timeline[2]!.action, type: 'kill_leader', target_id: '', metadata: {} };
    report.timeline[0]!.action = { ...report.timeline[0]!.action, metadata: { duration: 150, delay: 40 } };
    const draft = survivalToScenario(report);
    expect(draft.actions.map((a) => a.delay)).toEqual(['0ms', '100ms', '100ms']);
    expect(draft.actions[1]!.action).toEqual({ type: 'remove_edge', target_id: 'plan', source_id: 'fetch' });
    expect(draft.actions[2]!.action).toEqual({ type: 'kill_leader' });
    const checked = checkScenarioText(survivalToScenarioYaml(report), 'saved.yaml');
    expect(checked.errors).toEqual([]);
    expect(checked.scenario!.actions).toHaveLength(3);
    expect(checked.scenario!.config.seed).toBe(7);
  });
});
