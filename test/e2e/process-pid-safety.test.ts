/**
 * A pid source that names the arena's own family is refused before anything is signalled (issue 39,
 * High 2): a pid file holding the arena's parent shell once got the shell's other children
 * SIGKILLed, and the run passed saying the shell "exited before it could be killed". Every source
 * (file, port, match) against real processes above and beside a real arena: nothing killed, a clear
 * error naming the agent, the source and why, exit 3.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProcessTarget } from '../../src/targets/process/index.js';
import { processTargetSchema } from '../../src/targets/process/spec.js';
import { RuntimeError } from '../../src/shared/errors.js';
import { ARENA_BIN, arena } from '../helpers/cli.js';
import { FLEET_DIR, freePorts, procState, processesMatching, waitFor } from '../helpers/process-fleet.js';

let dir = '';
const children: ChildProcess[] = [];
const servers: Server[] = [];
const strays: number[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-pid-safety-'));
});

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

const alive = (pid: number) => {
  const state = procState(pid);
  return state !== undefined && state !== 'Z' && state !== 'T';
};

function scenario(body: string) {
  const file = join(dir, 'scenario.yaml');
  writeFileSync(file, `name: s\nconfig: { warmup: 200ms, cooldown: 300ms, timeout: 30s }\nactions:\n${body}`);
  return file;
}

const agent = (id: string, pid: string) =>
  `  - id: ${id}\n    pid: ${pid}\n    health: { command: "true", interval: 50ms }\n`;

describe('pid sources never name the arena, its ancestors, its group or its session', { timeout: 60_000 }, () => {
  it("a pid file holding the arena's parent shell: refused, the shell's other child lives, exit 3", async () => {
    const target = join(dir, 'target.yaml');
    const shellPid = join(dir, 'shell.pid');
    writeFileSync(target, `kind: process\nname: shell\nagents:\n${agent('shell', `{ file: ${shellPid} }`)}`);
    const run = scenario('  - action: { type: kill_agent, target_id: shell }\n');
    // the audit's reproduction: a shell with another child (here a sleep) that runs the arena
    const script = `sleep 600 >/dev/null 2>&1 & echo $! > ${join(dir, 'sibling.pid')}; echo $$ > ${shellPid}; node ${ARENA_BIN} scenario run ${run} --target ${target}; echo "arena-exit=$?"`;
    const result = await execa('/bin/sh', ['-c', script], {
      reject: false,
      timeout: 60_000,
      extendEnv: false,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
    });
    const sibling = Number(readFileSync(join(dir, 'sibling.pid'), 'utf8'));
    strays.push(sibling);
    const shell = Number(readFileSync(shellPid, 'utf8'));
    expect(result.stdout).toContain('arena-exit=3');
    expect(result.stderr).toMatch(
      new RegExp(
        `agent shell: pid file ${shellPid} names pid ${shell} \\(.*\\), which is above the arena \\(its parent shell or runner\\).*refusing to signal it`,
      ),
    );
    expect(result.stderr).toContain('hint: run the agents in their own session');
    expect(alive(sibling)).toBe(true);
    // the shell lived to print the arena's exit code: it was never killed
    expect(result.exitCode).toBe(0);
  });

  it('file, port and match naming the arena, its parent, or a process in its group: each refused by name', async () => {
    // the test process is the arena's parent: it listens on a port, and starts a sleep in its own
    // (and so the arena's) process group
    const server = createServer();
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const sleeper = spawn('sleep', ['600'], { stdio: 'ignore' });
    children.push(sleeper);
    const parentPid = join(dir, 'parent.pid');
    const groupPid = join(dir, 'group.pid');
    writeFileSync(parentPid, `${process.pid}\n`);
    writeFileSync(groupPid, `${sleeper.pid}\n`);
    // a name only the arena's own command line holds
    const target = join(dir, `own-cmdline-${process.pid}.yaml`);
    writeFileSync(
      target,
      `kind: process\nname: family\nagents:\n${agent('by-file', `{ file: ${parentPid} }`)}${agent('by-port', `{ port: ${port} }`)}${agent('by-match', `{ match: "own-cmdline-${process.pid}.yaml" }`)}${agent('by-group', `{ file: ${groupPid} }`)}`,
    );
    const result = await arena([
      'scenario',
      'run',
      scenario(
        ['by-file', 'by-port', 'by-match', 'by-group']
          .map((id) => `  - action: { type: kill_agent, target_id: ${id} }\n`)
          .join(''),
      ),
      '--target',
      target,
    ]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(
      new RegExp(`agent by-file: pid file ${parentPid} names pid ${process.pid} .*, which is above the arena`),
    );
    expect(result.stderr).toMatch(new RegExp(`agent by-port: port ${port} names pid ${process.pid} .*above the arena`));
    expect(result.stderr).toMatch(
      /agent by-match: match "own-cmdline-\d+\.yaml" names pid \d+ .*which is the arena itself/,
    );
    expect(result.stderr).toMatch(
      new RegExp(`agent by-group: pid file ${groupPid} names pid ${sleeper.pid} .*in the arena's own process group`),
    );
    expect(alive(sleeper.pid!)).toBe(true);
  });

  it('a pid file rewritten mid-run to the arena or its parent: kill and pause fail, nothing is signalled', async () => {
    const [port] = await freePorts(1);
    const id = `safety${process.pid}`;
    const worker = spawn(process.execPath, [join(FLEET_DIR, 'worker.mjs'), id, String(port)], {
      stdio: 'ignore',
      detached: true,
    });
    children.push(worker);
    await waitFor(() => processesMatching(`tiny-agent ${id}`).length === 1, 5000, 'worker up');
    const pidFile = join(dir, 'w.pid');
    writeFileSync(pidFile, `${worker.pid}\n`);
    const target = createProcessTarget(
      processTargetSchema.parse({
        kind: 'process',
        name: 'rewritten',
        agents: [{ id, pid: { file: pidFile }, health: { tcp: `127.0.0.1:${port}`, interval: '50ms' } }],
      }),
      { baseDir: dir },
    );
    await target.start();
    try {
      // here the arena is this test process
      for (const [pid, why] of [
        [process.pid, 'the arena itself'],
        [process.ppid, 'above the arena'],
      ] as const) {
        writeFileSync(pidFile, `${pid}\n`);
        for (const fault of [() => target.runtime.stopAgent(id), () => target.runtime.pauseAgent(id)]) {
          const err = await fault().then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(err).toBeInstanceOf(RuntimeError);
          expect((err as RuntimeError).code).toBe('unsafe_pid');
          expect((err as Error).message).toContain(`which is ${why}`);
        }
      }
      expect(alive(worker.pid!)).toBe(true);
      // named rightly again, the kill is reported only once the process is gone
      writeFileSync(pidFile, `${worker.pid}\n`);
      const report = (await target.runtime.stopAgent(id)) as { killed_pids: number[] };
      expect(report.killed_pids).toContain(worker.pid);
      const state = procState(worker.pid!);
      expect(state === undefined || state === 'Z').toBe(true);
    } finally {
      await target.stop();
    }
  });
});
