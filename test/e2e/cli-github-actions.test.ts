/**
 * Issue 36, DESIGN §17: under GitHub Actions a run appends a markdown summary
 * to $GITHUB_STEP_SUMMARY and prints `::error file=…,line=…::` at the scenario
 * line of each failed expectation and of the gate.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-github-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const SCENARIO = [
  'name: gh-annotations', // 1
  'config:', // 2
  '  warmup: 20ms', // 3
  '  cooldown: 50ms', // 4
  'actions:', // 5
  '  - label: fine', // 6
  '    action: { type: slow_agent, target_id: agent-2, metadata: { duration: 50ms, delay: 5ms } }', // 7
  '    expect_success: true', // 8
  '  - label: resume-running', // 9
  '    action: { type: resume_agent, target_id: agent-1 }', // 10 (agent-1 is not paused: this fails)
  '    expect_success: true', // 11
  '',
].join('\n');

describe('GitHub Actions', () => {
  it('a failed expectation: a summary table in GITHUB_STEP_SUMMARY and an annotation at its line', async () => {
    writeFileSync(join(dir, 'gh.yaml'), SCENARIO);
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    // --gate lower at 100: the score's 95% lower bound is below 100 whatever happens, so the gate fails
    const r = await arena(['scenario', 'run', 'gh.yaml', '--min-score', '100', '--gate', 'lower'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_WORKSPACE: dir },
    });
    expect(r.exitCode, r.stderr).toBe(1);
    const text = readFileSync(summary, 'utf8');
    // appended, not overwritten
    expect(text.startsWith('# earlier step\n')).toBe(true);
    expect(text).toContain('| Run | Status | Score | Grade | Availability | Recovery | Consistency | Gate |');
    expect(text).toMatch(/\| gh-annotations \| ❌ failed \| \d+\.\d \| [A-F]\+? \|/);
    expect(text).toContain('### Failed expectations');
    expect(text).toContain('`resume-running`: expected success, got failure');
    const annotations = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(annotations[0]).toMatch(
      /^::error file=gh\.yaml,line=9,title=gh-annotations%3A expectation not met::resume-running \(resume_agent\) was expected to succeed, but it failed: /,
    );
    // the gate came from --min-score, not the file: annotated on the file, with no line to point at
    expect(annotations[1]).toMatch(
      /^::error file=gh\.yaml,title=gh-annotations%3A gate failed::score [\d.]+ \(95%25 lower bound /,
    );
    expect(annotations).toHaveLength(2);
  });

  it('the gate is annotated at expect.min_score; nothing is written without GITHUB_ACTIONS', async () => {
    writeFileSync(
      join(dir, 'gate.yaml'),
      SCENARIO.replace('name: gh-annotations', 'name: gate').replace('actions:', 'expect:\n  min_score: 100\nactions:'),
    );
    const summary = join(dir, 'summary.md');
    const r = await arena(['scenario', 'run', 'gate.yaml', '--json', '--gate', 'lower'], {
      cwd: dir,
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    expect(r.exitCode, r.stderr).toBe(1);
    // --json: stdout is the document alone, the annotations go to stderr
    expect(() => JSON.parse(r.stdout)).not.toThrow();
    const annotations = r.stderr.split('\n').filter((l) => l.startsWith('::error '));
    expect(annotations).toContainEqual(
      expect.stringMatching(/^::error file=gate\.yaml,line=11,title=gate%3A expectation not met::/),
    );
    expect(annotations).toContainEqual(
      expect.stringMatching(/^::error file=gate\.yaml,line=6,title=gate%3A gate failed::score /),
    );

    const plain = await arena(['scenario', 'run', 'gate.yaml'], {
      cwd: dir,
      env: { GITHUB_STEP_SUMMARY: join(dir, 'no.md') },
    });
    expect(plain.exitCode).toBe(1);
    expect(plain.stdout).not.toContain('::error');
    expect(() => readFileSync(join(dir, 'no.md'))).toThrow();
  });

  it('regress: the verdict table in the summary, the failed gate annotated', async () => {
    const summary = join(dir, 'summary.md');
    const F = 'test/fixtures/regress';
    const r = await arena(
      ['regress', '--baseline-scores', `${F}/baseline-scores.json`, '--candidate-scores', `${F}/worse-scores.json`],
      { env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } },
    );
    expect(r.exitCode, r.stderr).toBe(1);
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('## Chaos Arena: regress');
    expect(text).toContain('**❌ candidate worse**: difference −');
    expect(text).toContain('| Arm | Runs | Mean score | SD |');
    expect(text).toMatch(/\| baseline: test\/fixtures\/regress\/baseline-scores\.json \| \d+ \| [\d.]+ \|/);
    expect(r.stdout).toMatch(
      /^::error title=regress%3A gate failed::regression: the candidate is significantly worse/m,
    );
  });
});
