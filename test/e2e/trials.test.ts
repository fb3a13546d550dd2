/**
 * `arena trials` as a user runs it (bin/arena.js against dist): on the embedded target, and on the
 * example LLM agent (examples/llm-agent, a real openai-SDK agent behind the arena's LLM fault proxy)
 * under its llm_failure scenario, with the gates, JUnit and the --json contract of DESIGN §14.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrialsReport } from '../../src/arena/trials/report.js';
import { arena } from '../helpers/cli.js';
import { exampleLlmAgentTarget, LLM_AGENT_EXAMPLE } from '../helpers/example-llm-agent.js';
import { processesMatching } from '../helpers/process-fleet.js';

const EXAMPLE = LLM_AGENT_EXAMPLE;
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** the example's target file on free ports, in this test's folder */
function tempTarget(env: Record<string, string> = {}) {
  return exampleLlmAgentTarget(dir, env);
}

describe('arena trials', () => {
  it('runs the embedded target’s own task clean and prints the JSON contract', async () => {
    const result = await arena(['trials', '--trials', '3', '--seed', '5', '--json'], { timeout: 60_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as TrialsReport;
    expect(report.schema_version).toBe(1);
    expect(report.trials).toMatchObject({ n: 3, k: [1, 2], seed: 5, scenario: null });
    const task = report.trials.tasks[0]!;
    expect(task.id).toBe('workflow');
    expect(task.clean).toMatchObject({ n: 3, successes: 3, pass_k: { '1': 1, '2': 1 } });
    expect(task.faulted).toBeNull();
    // the runtime's LLM attempts are recorded; there was no faulted arm to measure
    expect(task.behaviour.llm_calls.clean).toBeGreaterThan(0);
    expect(task.behaviour.llm_calls.faulted).toBeNull();
  });

  it('on the embedded target under llm-outage: the retries and fallbacks the faults caused show as added LLM calls', async () => {
    const scenario = fileURLToPath(new URL('../../scenarios/llm-outage.yaml', import.meta.url));
    const result = await arena(['trials', '--scenario', scenario, '--trials', '3', '--seed', '5', '--json'], {
      timeout: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const task = (JSON.parse(result.stdout) as TrialsReport).trials.tasks[0]!;
    expect(task.faulted!.n).toBe(3);
    expect(task.behaviour.llm_calls.faulted!).toBeGreaterThan(task.behaviour.llm_calls.clean!);
    expect(task.behaviour.runaway).toBe(false);
  });

  it('refuses a k over --trials with exit 2, before anything starts', async () => {
    const result = await arena(['trials', '--trials', '2', '--k', '4']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--k takes integers from 1 to --trials (2)');
  });

  it('on the example LLM agent under llm_failure: lower pass^k than clean, and --min-pass-k fails each task in JUnit (exit 1)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-trials-'));
    const { target, env } = await tempTarget();
    const junit = join(dir, 'trials.xml');
    const result = await arena(
      [
        'trials',
        '--target',
        target,
        '--scenario',
        join(EXAMPLE, 'scenarios', 'llm-outage.yaml'),
        '--trials',
        '2',
        '--k',
        '1,2',
        '--seed',
        '9',
        '--min-pass-k',
        '1:0.9',
        '--junit',
        junit,
        '--json',
      ],
      { env, timeout: 120_000 },
    );
    expect(result.exitCode, result.stderr).toBe(1);
    expect(processesMatching(dir)).toEqual([]);
    const report = JSON.parse(result.stdout) as TrialsReport;
    expect(report.status).toBe('failed');
    expect(report.trials.faults).toMatchObject({ applied: 2, failed: 0 });
    for (const task of report.trials.tasks) {
      expect(task.clean.successes).toBe(2);
      expect(task.faulted!.pass_k['1']!).toBeLessThan(task.clean.pass_k['1']!);
    }
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testcase classname="trials" name="sum"');
    expect(xml.match(/<failure /g)).toHaveLength(2);
  });

  it('on the example LLM agent under wrong_value: the changed numbers reach the user in the faulted trials, per trial', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-trials-'));
    const { target, env } = await tempTarget();
    // a task whose answer carries numbers long enough to trace (§13.3), alone: the example's tasks have none
    const original = readFileSync(target, 'utf8');
    // the agent's /task URL as the example's own tasks write it (with its port variable)
    const url = /url: "([^"]+\/task)"/.exec(original)![1]!;
    const text = original.replace(
      /^tasks:.*\n[\s\S]*?^prices:/m,
      `tasks:\n  - id: big\n    request: { method: POST, url: "${url}", json: { q: "1234+5678" }, timeout: 10s }\n    expect: { status: 200, json: { path: "$.answer", equals: "echo: 1234+5678" } }\nprices:`,
    );
    writeFileSync(target, text);
    const scenario = join(dir, 'wrong-numbers.yaml');
    writeFileSync(
      scenario,
      [
        'name: wrong-numbers',
        'actions:',
        '  - action: { type: llm_failure, target_id: agent, metadata: { error_type: wrong_value, duration: 30s } }',
      ].join('\n'),
    );
    const result = await arena(
      ['trials', '--target', target, '--scenario', scenario, '--trials', '2', '--k', '1', '--seed', '4', '--json'],
      { env, timeout: 120_000 },
    );
    expect(processesMatching(dir)).toEqual([]);
    const report = JSON.parse(result.stdout) as TrialsReport;
    expect(report.trials.tasks.map((t) => t.id)).toEqual(['big']);
    const task = report.trials.tasks[0]!;
    // the agent passed the model's changed answer on to the user: wrong, and traced to the trials it happened in
    expect(task.faulted!.successes, result.stderr).toBe(0);
    // each faulted trial's answer carried a changed number (counted per fault: a block's fault and an earlier
    // block's that wrote the same seeded numbers may both claim one answer)
    expect(task.behaviour.markers!.faulted).toMatchObject({ trials: 2 });
    expect(task.behaviour.markers!.faulted.reached_user).toBeGreaterThanOrEqual(2);
    expect(report.trials.unattributed_markers).toEqual({ entered_context: 0, drove_action: 0, reached_user: 0 });
    expect(task.behaviour.markers!.clean).toEqual({ entered_context: 0, drove_action: 0, reached_user: 0, trials: 0 });
    expect(task.clean.successes).toBe(2);
  });

  it('on the example LLM agent: the calls the faults added, runaway for the blind-retry variant and not for the original', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-trials-'));
    const run = async (extra: Record<string, string>) => {
      const { target, env } = await tempTarget(extra);
      const result = await arena(
        [
          'trials',
          '--target',
          target,
          '--scenario',
          join(EXAMPLE, 'scenarios', 'llm-outage.yaml'),
          '--trials',
          '2',
          '--k',
          '1',
          '--seed',
          '3',
          '--json',
        ],
        { env, timeout: 120_000 },
      );
      expect(result.exitCode, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as TrialsReport;
    };
    const original = await run({});
    for (const task of original.trials.tasks) {
      // clean: one call, answered with usage; under the 429s the SDK tries twice and gets no tokens
      expect(task.behaviour.llm_calls).toEqual({ clean: 1, faulted: 2 });
      expect(task.behaviour.runaway).toBe(false);
      expect(task.cost.tokens.clean).toBeGreaterThan(0);
      expect(task.cost.usd.clean).toBeGreaterThan(0);
      expect(task.behaviour.unattributed_calls).toBe(0);
    }
    const blind = await run({ AGENT_BLIND_RETRY: '1' });
    for (const task of blind.trials.tasks) {
      expect(task.behaviour.llm_calls).toEqual({ clean: 1, faulted: 20 });
      expect(task.behaviour.runaway).toBe(true);
    }
  });
});
