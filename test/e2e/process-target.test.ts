/**
 * The process target against a real tiny fleet: a supervisor (its workers in
 * its own process group) that restarts a dead worker after 200 ms, a front
 * door with /leader and /task. Faults act on the real processes; the
 * supervisor does the healing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessTarget } from '../../src/targets/process/index.js';
import type { Target } from '../../src/targets/process/contract.js';
import { RuntimeError, NotFoundError } from '../../src/shared/errors.js';
import { FLEET_DIR, procState, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

let target: Target | undefined;
let tag = '';
let seq = 0;

afterEach(async () => {
  await target?.stop();
  target = undefined;
  // nothing this test started may outlive it
  expect(processesMatching(tag)).toEqual([]);
});

async function startFleet(restartDelayMs = 200) {
  tag = `pt${process.pid}x${++seq}`;
  const fleet = await tinyFleet({ tag, restartDelayMs });
  target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
  await target.start();
  return fleet;
}

async function recoveryMs(t: Target, scope: Parameters<Target['observer']['health']>[0]): Promise<number> {
  const started = performance.now();
  await waitFor(async () => (await t.observer.health(scope)).healthy, 8000, `${JSON.stringify(scope)} healthy`);
  return performance.now() - started;
}

describe('process target on a tiny supervised fleet', { timeout: 45_000 }, () => {
  it('kill_agent: SIGKILLs the agent, not its supervisor; the supervisor restarts it and recovery spans the restart delay', async () => {
    const fleet = await startFleet(400);
    const t = target!;
    const id = fleet.ids[1]!;
    const supervisor = processesMatching(`supervisor.mjs ${fleet.front}`)[0]!;
    const report = (await t.runtime.stopAgent(id)) as { pid: number; killed_pids: number[] };
    expect(report.killed_pids).toEqual([report.pid]);
    expect((await t.observer.health({ kind: 'agent', id, aspect: 'process' })).healthy).toBe(false);
    const took = await recoveryMs(t, { kind: 'agent', id, aspect: 'process' });
    // the supervisor waits 400 ms before the restart; two 50 ms probe passes after that
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(4000);
    expect(procState(supervisor.pid)).toMatch(/[RS]/);
    const agents = await t.runtime.listAgents();
    const info = agents.find((a) => a.id === id)!;
    expect(info).toMatchObject({ status: 'running', restarts: 1 });
    expect(agents.filter((a) => a.id !== id).every((a) => a.restarts === 0)).toBe(true);
  });

  it('pause_agent with a duration: the process is in state T, requests to it fail, then it is resumed and healthy', async () => {
    const fleet = await startFleet();
    const t = target!;
    const id = fleet.ids[0]!;
    const before = await t.observer.workload();
    const report = (await t.runtime.pauseAgent(id, { durationMs: 800 })) as { pid: number };
    expect(procState(report.pid)).toBe('T');
    expect((await t.runtime.listAgents()).find((a) => a.id === id)!.status).toBe('paused');
    expect(await t.runtime.activeFaults()).toEqual([expect.objectContaining({ kind: 'pause_agent', target: id })]);
    await waitFor(() => procState(report.pid) !== 'T', 3000, 'SIGCONT after the duration');
    await recoveryMs(t, { kind: 'agent', id });
    const after = await t.observer.workload();
    const failed = after.failed - before.failed;
    expect(after.requests - before.requests).toBeGreaterThan(5);
    // one task in three went to the stopped worker and timed out: availability below 100 during the fault
    expect(failed).toBeGreaterThan(0);
    expect(await t.runtime.activeFaults()).toEqual([]);
    await expect(t.runtime.resumeAgent(id)).rejects.toThrow(`resume_agent: agent ${id} is not paused`);
  });

  it('resume_agent ends a pause early; stop() resumes whatever is still paused', async () => {
    const fleet = await startFleet();
    const t = target!;
    const a = (await t.runtime.pauseAgent(fleet.ids[0]!)) as { pid: number };
    const b = (await t.runtime.pauseAgent(fleet.ids[1]!)) as { pid: number };
    await expect(t.runtime.pauseAgent(fleet.ids[1]!)).rejects.toThrow('already paused');
    await t.runtime.resumeAgent(fleet.ids[0]!);
    expect(procState(a.pid)).not.toBe('T');
    expect(procState(b.pid)).toBe('T');
    await t.stop();
    expect(procState(b.pid) ?? 'gone').not.toBe('T');
  });

  it('kill_leader: the leader probe names an agent; it is killed and the role is served again', async () => {
    const fleet = await startFleet();
    const t = target!;
    const leader = (await t.runtime.listAgents()).find((a) => a.role === 'leader')!;
    expect(leader.id).toBe(fleet.ids[0]);
    await t.runtime.stopAgent(leader.id);
    const took = await recoveryMs(t, { kind: 'leader' });
    expect(took).toBeLessThan(4000);
    expect((await t.runtime.listAgents()).some((a) => a.role === 'leader')).toBe(true);
  });

  it('refuses what it cannot do: unknown agent, DAG faults, proxies and hooks that are not configured', async () => {
    await startFleet();
    const t = target!;
    await expect(t.runtime.stopAgent('nobody')).rejects.toThrow(NotFoundError);
    const refused = t.unsupportedFaults();
    expect(refused.remove_node).toBe('a process target has no workflow DAG');
    expect(refused.memory_corrupt).toMatch(/has no memory_corrupt hook/);
    expect(refused.slow_agent).toMatch(/has a proxy/);
    expect(refused.kill_orchestrator).toMatch(/no agent with role orchestrator/);
    expect(refused.kill_leader).toBeUndefined();
    await expect(t.runtime.corruptMemory(tinyId(0))).rejects.toThrow(RuntimeError);
    expect(t.dag).toBeUndefined();
  });

  it('invariants: no process left stopped, and a failing invariant says what it saw', async () => {
    tag = `pt${process.pid}x${++seq}`;
    const fleet = await tinyFleet({ tag });
    fleet.spec.invariants = [
      {
        name: 'leader-known',
        request: { method: 'GET', url: `http://127.0.0.1:${fleet.front}/leader`, timeout: 1000 },
        expect: { json: { path: '$.leader', exists: true } },
      },
      {
        name: 'leader-is-3',
        request: { method: 'GET', url: `http://127.0.0.1:${fleet.front}/leader`, timeout: 1000 },
        expect: { json: { path: '$.leader', equals: 'x' } },
      },
    ];
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
    await target.start();
    const checks = await target.observer.checkInvariants();
    expect(checks).toEqual([
      { name: 'leader-known', passed: true },
      { name: 'leader-is-3', passed: false, detail: `$.leader is "${fleet.ids[0]}", expected "x"` },
      { name: 'no-stopped-process', passed: true },
    ]);
  });
});

describe('process target safety', { timeout: 45_000 }, () => {
  it('never signals the supervisor: an agent whose pid source names the start command is refused, and the fleet keeps running', async () => {
    tag = `pt${process.pid}x${++seq}`;
    const fleet = await tinyFleet({
      tag,
      edit: (input) => {
        const front = Number(/:(\d+)\//.exec(input.leader!.http!)![1]);
        input.agents.push({
          id: 'boss',
          pid: { match: `supervisor.mjs ${front}` },
          health: { tcp: `127.0.0.1:${front}` },
        });
      },
    });
    target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
    await target.start();
    await expect(target.runtime.stopAgent('boss')).rejects.toThrow(
      /kill_agent: agent boss resolves to pid \d+, which is the start command's own process or above it/,
    );
    await expect(target.runtime.pauseAgent('boss')).rejects.toThrow(/pause_agent: agent boss resolves to pid/);
    expect((await target.observer.health({ kind: 'target' })).healthy).toBe(true);
    expect(processesMatching(tag).every((p) => p.state !== 'T')).toBe(true);
  });
});

function tinyId(i: number): string {
  return `${tag}-${i + 1}`;
}
