/**
 * `--target` with a process target file through the real CLI: a broken file
 * is exit 2 with line:column, a start command that dies is exit 3 with its
 * output, a fault the target cannot apply is refused before anything runs,
 * and describe shows the agents and what is refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { arena } from '../helpers/cli.js';
import { FLEET_DIR, freePorts, processesMatching } from '../helpers/process-fleet.js';

let dir = '';
const tag = `cli${process.pid}`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-cli-process-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(processesMatching(tag)).toEqual([]);
});

async function tinyTargetFile(extra = '', command?: string) {
  const [front, port] = await freePorts(2);
  const file = join(dir, 'target.yaml');
  writeFileSync(
    file,
    `kind: process
name: tiny
start:
  command: ${JSON.stringify(command ?? `exec node ${join(FLEET_DIR, 'supervisor.mjs')} ${front} 200 ${tag}-1=${port}`)}
  ready: { http: "http://127.0.0.1:${front}/healthz", timeout: 10s }
  grace: 1s
agents:
  - id: ${tag}-1
    pid: { port: ${port} }
    health: { http: "http://127.0.0.1:${port}/", interval: 50ms, timeout: 300ms }
${extra}`,
  );
  return file;
}

function scenario(body: string) {
  const file = join(dir, 'scenario.yaml');
  writeFileSync(file, `name: s\nconfig: { warmup: 200ms, cooldown: 500ms, timeout: 30s }\nactions:\n${body}`);
  return file;
}

describe('arena with a process target file', { timeout: 60_000 }, () => {
  it('an invalid process target is exit 2 naming each problem with its line and column, nothing started', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'kind: process\nname: bad\nagents:\n  - id: w\n    pid: { port: 7101, match: x }\n    health: { http: "http://h/", timeout: 2 parsecs }\n    colour: red\n',
    );
    const result = await arena(['describe', '--target', file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('5:10');
    expect(result.stderr).toContain('expected exactly one of file, port, match, got port and match');
    expect(result.stderr).toMatch(/6:\d+.*invalid duration "2 parsecs"/);
    expect(result.stderr).toMatch(/7:5 agents\[0\].colour: unknown key "colour"/);
  });

  it('a start command that exits at once is exit 3 with its own last words', async () => {
    const file = await tinyTargetFile('', `echo "${tag}: no config found" >&2; exit 7`);
    const result = await arena([
      'scenario',
      'run',
      scenario('  - action: { type: kill_agent, target_id: x }\n'),
      '--target',
      file,
    ]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('exited with code 7 before it was ready');
    expect(result.stderr).toContain(`${tag}: no config found`);
  });

  it('a fault the target cannot apply is refused before anything is injected; a real kill runs and recovers by the supervisor restarting it', async () => {
    const file = await tinyTargetFile();
    const refused = await arena([
      'scenario',
      'run',
      scenario(`  - action: { type: memory_corrupt, target_id: ${tag}-1 }\n`),
      '--target',
      file,
      '--json',
    ]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('memory_corrupt: target tiny has no memory_corrupt hook');
    const ran = await arena([
      'scenario',
      'run',
      scenario(`  - action: { type: kill_agent, target_id: ${tag}-1 }\n    expect_success: true\n`),
      '--target',
      file,
      '--json',
    ]);
    expect(ran.exitCode, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout).scenarios[0];
    expect(report.score.measurements.recovery.faults[0]).toMatchObject({ type: 'kill_agent', recovered: true });
    expect(report.score.measurements.recovery.faults[0].recovery_ms).toBeGreaterThanOrEqual(150);
  });

  it('describe --target lists the proxies it runs in front of the agents: kind, agents, listen, upstream', async () => {
    const [llmPort] = await freePorts(1);
    const file = await tinyTargetFile(`llm: { listen: ${llmPort}, upstream: "http://127.0.0.1:9", api: openai }\n`);
    const json = await arena(['describe', '--target', file, '--json']);
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).strategy.proxies).toEqual([
      { kind: 'llm', agents: [`${tag}-1`], listen: `http://127.0.0.1:${llmPort}`, upstream: 'http://127.0.0.1:9' },
    ]);
    const text = await arena(['describe', '--target', file]);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toContain('Proxies');
    expect(text.stdout).toContain(`http://127.0.0.1:${llmPort}`);
  });
});
