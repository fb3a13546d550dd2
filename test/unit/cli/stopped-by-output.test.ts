/**
 * A run a stop condition ended (DESIGN §16) says so in every output: the exit (1, naming the
 * condition), JUnit (a failure case named after it), the plain lines, the final table, the live
 * view's feed and the web console's timeline.
 */
import chalk from 'chalk';
import { describe, expect, it } from 'vitest';
import type { StoppedBy } from '../../../src/arena/safety/watch.js';
import { scenarioJUnit, survivalJUnit } from '../../../src/cli/output/junit.js';
import { createPlainReporter } from '../../../src/cli/output/plain-reporter.js';
import { renderScenarioTables } from '../../../src/cli/output/table.js';
import { throwForOutcomes } from '../../../src/cli/run/outcome.js';
import { ViewReducer } from '../../../src/cli/view/view-state.js';
import { describeEvent } from '../../../src/web/format.js';
import { githubSummary, scenarioAnnotations } from '../../../src/cli/output/github.js';
import { GateFailedError } from '../../../src/shared/errors.js';
import { sampleScenario, sampleSurvival } from './sample-reports.js';
import { findAll, parseXml } from './xml-check.js';

chalk.level = 0;

const stopped: StoppedBy = {
  condition: 'availability_below 80% over 2000ms',
  kind: 'availability_below',
  value: 42.5,
  at_ms: 3210,
  reason: 'availability 42.5% over the last 2000ms (17/40 requests) is below 80%',
};
const TEXT =
  'stopped by availability_below 80% over 2000ms at 3.21s: availability 42.5% over the last 2000ms (17/40 requests) is below 80%';

describe('a run ended by a stop condition', () => {
  it('is exit 1 naming the condition, even when its gate passed', () => {
    const run = () =>
      throwForOutcomes([
        { name: 'storm', status: 'failed', gate: { min_score: 10, score: 50, passed: true }, stopped_by: stopped },
      ]);
    expect(run).toThrow(GateFailedError);
    expect(run).toThrow(`storm: ${TEXT}`);
  });

  it('JUnit: a failure case named after the condition (scenario and survival)', () => {
    for (const xml of [
      scenarioJUnit([sampleScenario({ status: 'failed', stopped_by: stopped })]),
      survivalJUnit(sampleSurvival({ status: 'failed', stopped_by: stopped })),
    ]) {
      const cases = findAll(parseXml(xml), 'testcase').filter((c) => c.attrs.name?.startsWith('stop condition'));
      expect(cases).toHaveLength(1);
      expect(cases[0]!.attrs.name).toBe('stop condition availability_below 80% over 2000ms');
      const failure = findAll(cases[0]!, 'failure')[0]!;
      expect(failure.attrs).toMatchObject({ type: 'stop_condition', message: TEXT });
    }
  });

  it('the plain lines and the final table say why it stopped', () => {
    const lines: string[] = [];
    createPlainReporter({ write: (s: string) => lines.push(s) })({
      type: 'run.finished',
      at_ms: 3300,
      status: 'failed',
      stopped_by: stopped,
    });
    expect(lines.join('')).toContain(`${TEXT}; faults reverted`);
    expect(lines.join('')).toContain('finished: failed');
    const table = renderScenarioTables([sampleScenario({ name: 'storm', status: 'failed', stopped_by: stopped })], 120);
    expect(table).toContain(`storm: ${TEXT}`);
  });

  it('the live view feed says why it stopped', () => {
    const view = new ViewReducer();
    view.apply({ type: 'run.finished', at_ms: 3300, status: 'failed', stopped_by: stopped });
    const feed = view.snapshot().feed.map((f) => [f.text, f.tone]);
    expect(feed).toEqual([
      [`${TEXT}; faults reverted`, 'bad'],
      ['finished: failed', 'bad'],
    ]);
  });

  it('the web console timeline says which condition and why', () => {
    expect(
      describeEvent('run.finished', { type: 'run.finished', at_ms: 3300, status: 'failed', stopped_by: stopped }),
    ).toEqual({
      text: `stopped by availability_below 80% over 2000ms: ${stopped.reason}; faults reverted`,
      tone: 'bad',
    });
  });

  it('GitHub Actions: an annotation and a "Stopped early" section in the step summary', () => {
    const report = sampleScenario({ name: 'storm', status: 'failed', stopped_by: stopped });
    expect(scenarioAnnotations(report, '/repo', {})).toContainEqual({
      title: 'storm: stop condition tripped',
      message: TEXT,
    });
    expect(githubSummary([{ kind: 'scenario', report }])).toContain(`### Stopped early\n\n- **storm** ${TEXT}`);
  });
});
