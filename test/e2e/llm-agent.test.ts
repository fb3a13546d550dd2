/**
 * The example LLM agent (examples/llm-agent) under a process target, run as a
 * user runs it: `arena scenario run … --target … --json` (bin/arena.js, so
 * dist must be built). The agent calls a stand-in LLM API with the official
 * openai SDK through the arena's LLM fault proxy; a 2 s rate_limit makes its
 * tasks fail (availability under 100) and recovery is timed until a probe
 * call through the proxy succeeds. The target file is a temp copy on free ports.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioReport } from '../../src/arena/report.js';
import { arena } from '../helpers/cli.js';
import { freePorts, processesMatching } from '../helpers/process-fleet.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/llm-agent/', import.meta.url));
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/**
 * The example's target file on free ports, run from the example's folder, with
 * absolute script paths (so this test finds its own processes in /proc) and the
 * stand-in's stats written to a file when it is stopped.
 */
async function tempTarget(statsFile: string): Promise<string> {
  const [upstream, agent, proxy] = await freePorts(3);
  const map: Record<string, number> = { '7350': upstream!, '7351': agent!, '7352': proxy! };
  const text = readFileSync(join(EXAMPLE, 'target.yaml'), 'utf8')
    .replace(/\b735[0-2]\b/g, (p) => String(map[p]))
    .replace('node fake-llm.mjs', `STATS_FILE=${statsFile} node ${join(EXAMPLE, 'fake-llm.mjs')}`)
    .replace('node agent.mjs', `node ${join(EXAMPLE, 'agent.mjs')}`)
    .replace(/^start:\n/m, `start:\n  cwd: ${JSON.stringify(EXAMPLE)}\n`);
  const file = join(dir, 'target.yaml');
  writeFileSync(file, text);
  return file;
}

describe('example LLM agent under a process target', () => {
  it('llm_failure rate_limit lowers availability, recovery is measured, the agent called through the proxy with the openai SDK', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-llm-agent-'));
    const statsFile = join(dir, 'upstream-stats.json');
    const target = await tempTarget(statsFile);
    const result = await arena(
      ['scenario', 'run', join(EXAMPLE, 'scenarios', 'llm-outage.yaml'), '--target', target, '--json'],
      { timeout: 30_000 },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    // the stand-in, the agent and their shell are gone
    expect(processesMatching(EXAMPLE)).toEqual([]);

    const report = (JSON.parse(result.stdout) as { scenarios: ScenarioReport[] }).scenarios[0]!;
    expect(report.results.map((r) => [r.result.action.type, r.result.success])).toEqual([['llm_failure', true]]);
    expect(report.results[0]!.result.metadata).toMatchObject({ error_type: 'rate_limit', duration_ms: 2000 });
    const m = report.score.measurements;
    // tasks failed while the API said 429: the SDK retried once after retry-after, then gave up
    expect(m.requests.failed).toBeGreaterThan(0);
    expect(m.requests.succeeded).toBeGreaterThan(0);
    expect(report.score.availability).toBeLessThan(100);
    const [fault] = m.recovery.faults;
    expect(fault).toMatchObject({ type: 'llm_failure', target: 'agent', recovered: true });
    // the limit lasts 2 s: the LLM cannot answer again before it lifts
    expect(fault!.recovery_ms!).toBeGreaterThanOrEqual(2000);
    expect(fault!.recovery_ms!).toBeLessThan(8000);

    // what reached the stand-in came from the openai SDK (x-stainless-* headers), named by the agent's x-arena-client
    const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as {
      completions: number;
      sdk_requests: number;
      clients: Record<string, number>;
    };
    expect(stats.clients.agent).toBeGreaterThan(0);
    expect(stats.sdk_requests).toBeGreaterThanOrEqual(stats.clients.agent!);
    expect(stats.sdk_requests).toBeGreaterThanOrEqual(m.requests.succeeded);
    // recovery was judged by the arena's own probe call through the same proxy, which reached the stand-in
    expect(stats.clients['arena-probe']).toBeGreaterThanOrEqual(1);

    // the proxy's own stats are in the report: the 429s it answered, the SDK's retries, the tokens it relayed
    expect(report.proxies).toHaveLength(1);
    const [proxy] = report.proxies!;
    expect(proxy).toMatchObject({ kind: 'llm', agents: ['agent'], upstream: expect.stringMatching(/^http:\/\/127/) });
    const proxyStats = proxy!.stats as {
      errors_injected: { rate_limit?: number };
      retries: number;
      tokens: { input: number; output: number; answers_with_usage: number };
      clients: Array<{ client: string; retries: number; retry_after: { sent: number } }>;
    };
    expect(proxyStats.errors_injected.rate_limit).toBeGreaterThan(0);
    expect(proxyStats.retries).toBeGreaterThan(0);
    const agentClient = proxyStats.clients.find((c) => c.client === 'agent');
    expect(agentClient?.retry_after.sent).toBeGreaterThan(0);
    // the stand-in answers usage {1, 1}: every answer with usage adds one token each way
    expect(proxyStats.tokens.answers_with_usage).toBeGreaterThan(0);
    expect(proxyStats.tokens.input).toBe(proxyStats.tokens.answers_with_usage);
  }, 40_000);
});
