import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import chalk from 'chalk';
import Table from 'cli-table3';
import { describe, expect, it } from 'vitest';
import { analyzeScores } from '../../../src/arena/regression/analysis.js';
import { runWith } from '../../../src/cli/main.js';
import { renderFitted, terminalWidth } from '../../../src/cli/output/fit.js';
import { renderRegressionTable } from '../../../src/cli/output/regress-table.js';
import { renderScenarioTables, renderSurvivalTable } from '../../../src/cli/output/table.js';
import { sampleOutcome, sampleScenario, sampleSurvival } from './sample-reports.js';

chalk.level = 0;
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

const widest = (text: string) => Math.max(...text.split('\n').map((l) => [...stripVTControlCharacters(l)].length));

describe('final tables fit the terminal', () => {
  it('only a terminal with columns is fitted', () => {
    expect(terminalWidth({ isTTY: true, columns: 80 })).toBe(80);
    expect(terminalWidth({ isTTY: false, columns: 80 })).toBeUndefined();
    expect(terminalWidth({ isTTY: true, columns: 0 })).toBeUndefined();
    expect(terminalWidth({})).toBeUndefined();
  });

  it('a wide table shrinks its widest columns to 80; off a terminal it is unchanged', () => {
    const make = () => {
      const t = new Table({ head: ['name', 'description', 'file'], style: { head: [], border: [] } });
      t.push(['a-very-long-scenario-name', 'x'.repeat(30) + ' word '.repeat(15), '/some/long/path/to/scenario.yaml']);
      return t;
    };
    const natural = make().toString();
    expect(widest(natural)).toBeGreaterThan(80);
    expect(renderFitted(make(), undefined)).toBe(natural);
    const fitted = renderFitted(make(), 80);
    expect(widest(fitted)).toBeLessThanOrEqual(80);
    expect(fitted).toContain('a-very-long-scenario-name');
    // a table that already fits is left alone
    const small = new Table({ head: ['a'] });
    small.push(['b']);
    expect(renderFitted(small, 80)).toBe(small.toString());
  });

  it('scenario, survival and regression tables: no line wider than 80 columns', () => {
    const scenario = sampleScenario({
      name: 'orchestrator-failover-with-a-long-name',
      results: [sampleOutcome('first-kill-of-the-leader-agent', true, 'success', true)],
    });
    const off = renderScenarioTables([scenario]);
    expect(widest(off)).toBeGreaterThan(80);
    // table lines only: footnotes are prose and wrap like prose
    const tableLines = (text: string) =>
      text
        .split('\n')
        .filter((l) => /^[┌│└├]/.test(l))
        .join('\n');
    expect(widest(tableLines(renderScenarioTables([scenario], 80)))).toBeLessThanOrEqual(80);
    expect(widest(tableLines(renderSurvivalTable(sampleSurvival(), 80)))).toBeLessThanOrEqual(80);
    const verdict = {
      ...analyzeScores([100, 100, 100], [62.5, 62.5, 62.5]),
      mode: 'scores' as const,
      baseline_files: ['a-rather-long-baseline-file-name.json'],
      candidate_files: ['b.json'],
    };
    expect(widest(renderRegressionTable(verdict))).toBeGreaterThan(80);
    expect(widest(tableLines(renderRegressionTable(verdict, 80)))).toBeLessThanOrEqual(80);
  });

  it('scenario list of the bundled scenarios (160 columns off a terminal) prints no line wider than 80', async () => {
    const list = async (stdout: { isTTY?: boolean; columns?: number }) => {
      let out = '';
      const code = await runWith(['scenario', 'list', 'scenarios'], {
        stdout: { write: (s: string) => (out += s), ...stdout },
        stderr: { write: () => true },
        env: {},
        cwd: REPO_ROOT,
        signal: new AbortController().signal,
      });
      expect(code).toBe(0);
      return out;
    };
    expect(widest(await list({}))).toBeGreaterThan(80);
    const out = await list({ isTTY: true, columns: 80 });
    expect(out).toContain('leader-failover');
    expect(widest(out)).toBeLessThanOrEqual(80);
  });
});
