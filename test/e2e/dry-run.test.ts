/**
 * `--dry-run` (DESIGN §6): every shipped scenario on the embedded target and on the example fleet, a
 * fleet someone else runs (so the test can watch its processes: no signal, same pids, none stopped), the
 * plan against what a real run then does, and exit 2 for what cannot be resolved.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DryRunPlan } from '../../src/arena/dry-run/types.js';
import type { ScenarioReport, SurvivalReport } from '../../src/arena/report.js';
import { arena, REPO_ROOT } from '../helpers/cli.js';
import { exampleFleetCopy } from '../helpers/example-fleet.js';
import { FLEET_DIR, procState, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

const SHIPPED = readdirSync(join(REPO_ROOT, 'scenarios')).filter((f) => f.endsWith('.yaml'));
let root = '';
let fleetDir = '';
let fleetEnv: Record<string, string> = {};
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arena-dry-run-'));
  ({ dir: fleetDir, env: fleetEnv } = await exampleFleetCopy(root, 'fleet'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const plansOf = (stdout: string) => (JSON.parse(stdout) as { dry_run: true; plans: DryRunPlan[] }).plans;

describe('--dry-run', () => {
  it('plans every shipped scenario on the embedded target: exit 0, every action on the timeline, nothing injected', async () => {
    const result = await arena(['scenario', 'run', ...SHIPPED.map((f) => `scenarios/${f}`), '--dry-run', '--json']);
    expect(result.exitCode, result.stderr).toBe(0);
    const plans = plansOf(result.stdout);
    expect(plans.map((p) => p.name).sort()).toEqual(SHIPPED.map((f) => f.replace('.yaml', '')).sort());
    for (const plan of plans) {
      expect(plan.injected).toBe(0);
      expect(plan.problems).toEqual([]);
      expect(plan.target.kind).toBe('embedded');
      expect(plan.leader).toBe('agent-1');
      expect(plan.timeline.length).toBeGreaterThan(0);
      for (const f of plan.timeline) expect(f.at_ms).toBeGreaterThanOrEqual(plan.warmup_ms);
    }
  });

  it('the plan is what a real run then does: same faults, same order, same targets, on time (embedded)', async () => {
    const dry = await arena(['scenario', 'run', 'scenarios/cascading-storm.yaml', '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const [plan] = plansOf(dry.stdout);
    const real = await arena(['scenario', 'run', 'scenarios/cascading-storm.yaml', '--json']);
    const report = (JSON.parse(real.stdout) as { scenarios: ScenarioReport[] }).scenarios[0]!;
    expect(report.seed).toBe(plan!.seed);
    const ran = [...report.results].sort((a, b) => a.planned_at_ms - b.planned_at_ms);
    expect(ran.map((r) => r.label)).toEqual(plan!.timeline.map((f) => f.label));
    for (const [i, f] of plan!.timeline.entries()) {
      expect(ran[i]!.result.action.type).toBe(f.type);
      // a `random` target is the seeded pick among the running workers: the same one when they all run
      expect(ran[i]!.result.action.target_id).toBe(f.target);
      // planned from the same delays; the real run adds only how long each injection took
      expect(ran[i]!.planned_at_ms).toBeGreaterThanOrEqual(f.at_ms);
      expect(ran[i]!.planned_at_ms - f.at_ms).toBeLessThan(2000);
    }
  });

  it('survival plans exactly the kinds, parameters and durations a real run with that seed draws', async () => {
    const args = ['survival', '--duration', '2s', '--interval', '400ms', '--seed', '11', '--json'];
    const dry = await arena([...args, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const [plan] = plansOf(dry.stdout);
    const real = await arena(args);
    const report = (JSON.parse(real.stdout) as { survival: SurvivalReport }).survival;
    expect(plan!.timeline.map((f) => [f.at_ms, f.type])).toEqual(
      report.timeline.map((t) => [t.planned_at, t.action.type]),
    );
    for (const [i, t] of report.timeline.entries()) {
      const { duration, ...params } = (t.action.metadata ?? {}) as Record<string, unknown>;
      expect(plan!.timeline[i]!.duration_ms).toBe(duration);
      expect(plan!.timeline[i]!.params ?? {}).toEqual(params);
    }
    // the first draw meets every agent running, as the plan assumed
    expect(report.timeline[0]!.action.target_id).toBe(plan!.timeline[0]!.target);
  });

  it('shrink plans its first run, the whole failing schedule, and writes nothing', async () => {
    const report = join(root, 'failing.json');
    const failing = await arena([
      'scenario',
      'run',
      'test/fixtures/shrink/two-fault-bug.yaml',
      '--strategy',
      'strategies/recovery-off.yaml',
      '--report',
      report,
      '--json',
    ]);
    expect(failing.exitCode).toBe(1);
    const ran = (JSON.parse(failing.stdout) as { scenarios: ScenarioReport[] }).scenarios[0]!.results;
    const out = join(root, 'never.yaml');
    const dry = await arena(['shrink', report, '--out', out, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const [plan] = plansOf(dry.stdout);
    expect(plan!.injected).toBe(0);
    expect(plan!.timeline.map((f) => [f.label, f.type])).toEqual(
      [...ran].sort((a, b) => a.at_ms - b.at_ms).map((r) => [r.label, r.result.action.type]),
    );
    expect(readdirSync(root)).not.toContain('never.yaml');
  });

  it('shrink --survival plans the survival it would run first, and runs nothing', async () => {
    const out = join(root, 'never-survival.yaml');
    const args = ['--survival', '--seed', '3', '--duration', '4s', '--interval', '1s', '--out', out];
    const dry = await arena(['shrink', ...args, '--dry-run', '--json']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const [plan] = plansOf(dry.stdout);
    expect(plan!.injected).toBe(0);
    expect(plan!.timeline).toHaveLength(4);
    // it did not run the survival: shrink says so on stderr when it does
    expect(dry.stderr).not.toContain('to find its failure');
    // the same plan as survival's own dry run with that seed
    const survival = await arena([
      'survival',
      '--seed',
      '3',
      '--duration',
      '4s',
      '--interval',
      '1s',
      '--dry-run',
      '--json',
    ]);
    expect(plansOf(survival.stdout)[0]!.timeline).toEqual(plan!.timeline);
    expect(readdirSync(root)).not.toContain('never-survival.yaml');
  });

  it('what cannot be resolved is exit 2, named, and nothing runs', async () => {
    const bad = join(root, 'unknown-agent.yaml');
    writeFileSync(
      bad,
      'name: ghost\nactions:\n  - label: ghost\n    delay: 100ms\n    action: { type: kill_agent, target_id: agent-9 }\n',
    );
    const unknown = await arena(['scenario', 'run', bad, '--dry-run']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('actions[0].action');
    expect(unknown.stderr).toContain('agent-9');
    // a fault the embedded runtime cannot apply: its simulated LLM has no stream to slow
    const slow = join(root, 'slow-stream.yaml');
    writeFileSync(
      slow,
      'name: slow\nactions:\n  - label: slow\n    delay: 100ms\n    action: { type: llm_failure, target_id: agent-1, metadata: { error_type: slow_stream } }\n',
    );
    const unsupported = await arena(['scenario', 'run', slow, '--dry-run', '--json']);
    expect(unsupported.exitCode).toBe(2);
    expect(plansOf(unsupported.stdout)[0]!.problems.join('\n')).toContain('slow_stream');
  });

  it('on the example fleet: each shipped scenario is planned or refused (exit 0 or 2), the fleet started only to find pids and stopped again', async () => {
    const target = join(fleetDir, 'target.yaml');
    for (const file of [
      ...SHIPPED.map((f) => join(REPO_ROOT, 'scenarios', f)),
      join(fleetDir, 'scenarios', 'kill-and-pause.yaml'),
    ]) {
      const result = await arena(['scenario', 'run', file, '--target', target, '--dry-run', '--json'], {
        env: fleetEnv,
        timeout: 90_000,
      });
      expect([0, 2], `${file}: ${result.stderr}`).toContain(result.exitCode);
      const [plan] = plansOf(result.stdout);
      expect(plan!.injected).toBe(0);
      expect(plan!.target.kind).toBe('process');
      // the shipped scenarios aim at agent-1…3, which this fleet does not have: refused as a real run would be
      if (result.exitCode === 2) expect(plan!.problems.length).toBeGreaterThan(0);
      // every worker had a pid, and nothing of the fleet is left running or stopped
      for (const a of plan!.agents) expect(a.pid).toBeGreaterThan(1);
      expect(processesMatching(fleetDir)).toEqual([]);
    }
  });

  it('on the example fleet, kill-and-pause: the plan names each pid and proxy, and a real run then does the same faults on time', async () => {
    const target = join(fleetDir, 'target.yaml');
    const scenario = join(fleetDir, 'scenarios', 'kill-and-pause.yaml');
    const dry = await arena(['scenario', 'run', scenario, '--target', target, '--dry-run', '--json'], {
      env: fleetEnv,
      timeout: 90_000,
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    const [plan] = plansOf(dry.stdout);
    expect(plan!.timeline.map((f) => [f.label, f.type])).toEqual([
      ['kill-worker-2', 'kill_agent'],
      ['pause-worker-3', 'pause_agent'],
      ['kill-leader', 'kill_leader'],
    ]);
    expect(plan!.timeline[0]!.target).toBe('worker-2');
    expect(plan!.timeline[0]!.pid).toBe(plan!.agents.find((a) => a.id === 'worker-2')!.pid);
    expect(plan!.agents.find((a) => a.id === 'worker-2')!.proxies![0]).toMatch(
      /^tcp 127\.0\.0\.1:\d+ → 127\.0\.0\.1:\d+$/,
    );
    const real = await arena(['scenario', 'run', scenario, '--target', target, '--json'], {
      env: fleetEnv,
      timeout: 90_000,
    });
    expect([0, 1], real.stderr).toContain(real.exitCode);
    const report = (JSON.parse(real.stdout) as { scenarios: ScenarioReport[] }).scenarios[0]!;
    for (const [i, f] of plan!.timeline.entries()) {
      const r = report.results[i]!;
      expect([r.label, r.result.action.type]).toEqual([f.label, f.type]);
      if (f.type !== 'kill_leader') expect(r.result.action.target_id).toBe(f.target);
      expect(r.planned_at_ms).toBeGreaterThanOrEqual(f.at_ms);
      expect(r.planned_at_ms - f.at_ms).toBeLessThan(3000);
    }
    expect(processesMatching(fleetDir)).toEqual([]);
  });
});

describe('--dry-run on a fleet someone else runs', () => {
  let supervisor: ChildProcess | undefined;
  afterAll(() => {
    // the whole group: the supervisor and its workers
    if (supervisor?.pid) process.kill(-supervisor.pid, 'SIGTERM');
  });

  it('sends no signal: the same processes run before and after, none stopped, and survival plans them by pid', async () => {
    const fleet = await tinyFleet({ tag: `dry${process.pid}` });
    const command = (fleet.input.start as { command: string }).command.replace(/^exec /, '').split(' ');
    // its own session, as a fleet someone else runs is (the arena refuses to signal its own family)
    supervisor = spawn(command[0]!, command.slice(1), { cwd: FLEET_DIR, stdio: 'ignore', detached: true });
    // each worker names itself `tiny-agent ID` once it runs
    const workers = () =>
      fleet.ids
        .flatMap((id) => processesMatching(`tiny-agent ${id}`).filter((p) => p.cmd === `tiny-agent ${id}`))
        .map((p) => p.pid)
        .sort((a, b) => a - b);
    await waitFor(() => workers().length === 3, 20_000, 'the workers');
    await waitFor(
      () =>
        fetch(`http://127.0.0.1:${fleet.front}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      20_000,
      'the front door',
    );
    const { start: _start, ...input } = fleet.input;
    const targetFile = join(root, 'external.yaml');
    writeFileSync(targetFile, JSON.stringify(input));
    const before = workers();
    expect(before).toHaveLength(3);

    const dry = await arena(
      ['survival', '--target', targetFile, '--actions', 'kill_agent,pause_agent', '--seed', '4', '--dry-run', '--json'],
      { timeout: 60_000 },
    );
    expect(dry.exitCode, dry.stderr).toBe(0);
    const [plan] = plansOf(dry.stdout);
    expect(plan!.target.started).toContain('no fault applied');
    expect(plan!.agents.map((a) => a.pid).sort((a, b) => a! - b!)).toEqual(before);
    for (const f of plan!.timeline) expect(before).toContain(f.pid);

    expect(workers()).toEqual(before);
    for (const pid of before) expect(procState(pid)).not.toMatch(/[TtZ]/);
  });
});
