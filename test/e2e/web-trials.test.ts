/**
 * The web console's Trials view in a real Chromium: `arena trials --store FILE` on the example LLM agent
 * (a real openai-SDK agent behind the arena's LLM fault proxy) under its llm_failure scenario with two
 * intensities, and an `arena serve` on the same SQLite file. The page shows the
 * job while it runs (trials done climbing, pass^k so far, the surface chart filling in), then the
 * figures of the report the command printed with --json, exactly.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPage } from '../helpers/chromium.js';
import { exampleLlmAgentTarget, LLM_AGENT_EXAMPLE } from '../helpers/example-llm-agent.js';
import { processesMatching } from '../helpers/process-fleet.js';
import { REPO_ROOT, arena } from '../helpers/cli.js';
import { http, startServe } from './serve-helpers.js';

interface Stats {
  n: number;
  successes: number;
  pass_k: Record<string, number>;
}
interface Report {
  status: string;
  trials: {
    k: number[];
    tasks: Array<{
      id: string;
      clean: Stats;
      faulted: Stats | null;
      cost: { tokens: { clean: number; faulted: number } };
    }>;
    surface: Array<{ intensity: number; pass_k: Record<string, number>; tasks: Array<{ id: string } & Stats> }>;
  };
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('web console: Trials view', () => {
  it('follows a running arena trials --store and ends on the figures its --json printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-webtrials-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, 'arena.db');
    const server = await startServe(['--store', db]);
    cleanups.push(() => server.stop());
    const { page, close } = await openPage(server.url);
    cleanups.push(close);
    await expect.poll(() => page.getByTestId('trials-empty').textContent(), { timeout: 30_000 }).toContain(db);

    // 2 tasks, 4 arms, 4 trials each: 32 trials over some 40 s, most of it the agent recovering between blocks
    // the agent's files in a folder of their own: the server's command line names the store's
    const agentDir = mkdtempSync(join(tmpdir(), 'arena-webtrials-agent-'));
    cleanups.push(() => rmSync(agentDir, { recursive: true, force: true }));
    const { target, env } = await exampleLlmAgentTarget(agentDir);
    const trials = arena(
      [
        'trials',
        '--target',
        target,
        '--scenario',
        join(LLM_AGENT_EXAMPLE, 'scenarios', 'llm-outage.yaml'),
        '--trials',
        '4',
        '--k',
        '1,2,4',
        '--seed',
        '7',
        '--intensity',
        '0,0.5',
        '--json',
        '--store',
        db,
      ],
      { env, timeout: 400_000 },
    );
    cleanups.push(async () => {
      trials.kill('SIGINT');
      await trials;
    });
    const job = page.locator('[data-testid=trials] li.trials-job').first();
    // seen while running: part of the trials done, pass^k so far, the surface partly drawn
    const seen: number[] = [];
    let midway = false;
    let watching = true;
    cleanups.push(() => {
      watching = false;
    });
    const watcher = (async () => {
      while (watching) {
        const [status, done, total, points] = await Promise.all([
          job.getAttribute('data-status', { timeout: 1000 }).catch(() => null),
          job.getAttribute('data-done', { timeout: 1000 }).catch(() => null),
          job.getAttribute('data-total', { timeout: 1000 }).catch(() => null),
          job
            .locator('[data-testid=trials-surface] circle')
            .count()
            .catch(() => 0),
        ]);
        if (done !== null) seen.push(Number(done));
        if (status === 'running' && Number(done) > 0 && Number(done) < Number(total) && points > 0) midway = true;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const r = await trials;
    expect(r.exitCode, r.stderr).toBe(0);
    expect(processesMatching(agentDir)).toEqual([]);
    const report = JSON.parse(r.stdout) as Report;
    await expect.poll(() => job.getAttribute('data-status'), { timeout: 30_000 }).toBe('finished');
    watching = false;
    await watcher;
    expect(midway, `the page never showed the job midway (done values seen: ${seen.join(',')})`).toBe(true);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1]!)).toBe(true);
    expect(await job.getAttribute('data-done')).toBe('32');

    // the final figures are the report's, to the last digit
    const cell = async (task: string, arm: string, k: number) =>
      Number(
        await job
          .locator(`table[data-task="${task}"] tr[data-arm="${arm}"] td[data-k="${k}"]`)
          .getAttribute('data-value'),
      );
    for (const task of report.trials.tasks) {
      for (const k of report.trials.k) {
        expect(await cell(task.id, 'clean', k)).toBe(task.clean.pass_k[k]);
        expect(await cell(task.id, 'faulted', k)).toBe(task.faulted!.pass_k[k]);
      }
      const row = job.locator(`table[data-task="${task.id}"] tr[data-arm="faulted"]`);
      expect(await row.getAttribute('data-successes')).toBe(String(task.faulted!.successes));
      // the report's behaviour and cost, clean → faulted
      const behaviour = await job.locator(`[data-testid=trials-behaviour][data-task="${task.id}"]`).textContent();
      expect(behaviour).toContain(
        `tokens ${task.cost.tokens.clean.toFixed(0)} → ${task.cost.tokens.faulted.toFixed(0)}`,
      );
      expect(behaviour).toMatch(/markers \d+\/\d+\/\d+ \(context\/action\/user\) in \d+ trial/);
    }
    expect(report.trials.surface.map((p) => p.intensity)).toEqual([0, 0.5]);
    for (const point of report.trials.surface) {
      const series = job.locator(`[data-testid=trials-surface] g[data-series="${point.intensity}"]`);
      for (const k of report.trials.k) {
        const drawn = await series.locator(`circle[data-k="${k}"]`).getAttribute('data-value');
        expect(Number(drawn)).toBe(point.pass_k[k]);
        for (const perTask of point.tasks)
          expect(await cell(perTask.id, `intensity=${point.intensity}`, k)).toBe(perTask.pass_k[k]);
      }
    }
    // the route the view polls: the report as --json printed it, and a bad limit refused
    const reply = await http(server.url, 'GET', '/api/v1/arena/trials?limit=1');
    expect(reply.status).toBe(200);
    expect(reply.json.jobs[0].report).toEqual(report);
    const bad = await http(server.url, 'GET', '/arena/trials?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('query parameter limit must be an integer from 1 to 100, got "0"');
    await page
      .screenshot({ path: join(REPO_ROOT, 'test-artifacts', 'console-trials.png'), fullPage: true })
      .catch(() => undefined);
  }, 600_000);
});
