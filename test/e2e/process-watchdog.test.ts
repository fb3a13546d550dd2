/**
 * The watchdog outlives the arena: an arena process (test/fixtures/process-
 * fleet/arena-child.mjs, running the built target from dist) pauses two
 * agents and is then SIGKILLed. No process may stay in state T, and the start
 * command it brought up must be ended too.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { FLEET_DIR, procState, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

const CHILD = fileURLToPath(new URL('../fixtures/process-fleet/arena-child.mjs', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/targets/process/index.js', import.meta.url));
let tag = '';

afterEach(() => {
  // last resort: never leave a stopped process or a fleet behind, even when an assertion failed
  for (const p of processesMatching(tag)) {
    try {
      process.kill(p.pid, 'SIGCONT');
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

async function arenaThatPauses(ids: string[], input: unknown, pauseMs?: number) {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(input), FLEET_DIR, ...ids], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(pauseMs !== undefined ? { ARENA_CHILD_PAUSE_MS: String(pauseMs) } : {}) },
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`arena child exited with ${code}`)));
  });
  return { child, paused: (JSON.parse(line) as { paused: number[] }).paused };
}

/** the watchdog the arena child runs now, and its run directory (from its command line) */
function watchdogOf(arenaPid: number): { pid: number; runDir: string } | undefined {
  const w = processesMatching('watchdog.cjs').find((p) => p.ppid === arenaPid);
  if (!w) return undefined;
  const script = w.cmd.split(' ').find((word) => word.endsWith('watchdog.cjs'))!;
  return { pid: w.pid, runDir: dirname(script) };
}

describe('watchdog', { timeout: 45_000 }, () => {
  it('resumes paused pids and ends the start command when the arena is SIGKILLed mid-pause', async () => {
    expect(existsSync(DIST), 'run `npm run build` first: the arena child runs the built target').toBe(true);
    tag = `wd${process.pid}`;
    const fleet = await tinyFleet({ tag, restartDelayMs: 200 });
    const { child, paused } = await arenaThatPauses(fleet.ids.slice(0, 2), fleet.input);
    expect(paused).toHaveLength(2);
    for (const pid of paused) expect(procState(pid)).toBe('T');
    const watchdog = watchdogOf(child.pid!)!;
    expect(watchdog).toBeDefined();
    expect(existsSync(watchdog.runDir)).toBe(true);

    child.kill('SIGKILL');
    // every paused pid is continued (and then, with the fleet, terminated): none is left in state T
    await waitFor(() => paused.every((pid) => procState(pid) !== 'T'), 10_000, 'paused pids resumed');
    await waitFor(() => processesMatching(tag).length === 0, 10_000, 'the start command and its workers ended');
    for (const pid of paused) expect(procState(pid) ?? 'gone').not.toBe('T');
    // and the run directory the arena could not remove is gone from the temp folder
    await waitFor(() => !existsSync(watchdog.runDir), 10_000, 'run directory removed');
  });

  it("a frozen arena (SIGSTOP) does not keep a timed pause past the fault's own end", async () => {
    expect(existsSync(DIST)).toBe(true);
    tag = `wdf${process.pid}`;
    const fleet = await tinyFleet({ tag, restartDelayMs: 200 });
    const { child, paused } = await arenaThatPauses(fleet.ids.slice(0, 1), fleet.input, 1000);
    try {
      child.kill('SIGSTOP');
      for (const pid of paused) expect(['T', 'R', 'S']).toContain(procState(pid));
      // the arena stays frozen; the watchdog ends the 1 s pause on time (10x as a safety net)
      await waitFor(
        () => paused.every((pid) => procState(pid) !== 'T'),
        10_000,
        'pause ended while the arena is frozen',
      );
      expect(procState(child.pid!)).toBe('T');
    } finally {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
    await waitFor(() => processesMatching(tag).length === 0, 10_000, 'the fleet ended');
  });

  it('a watchdog killed mid-pause is started again, and still resumes the agents when the arena is then SIGKILLed', async () => {
    expect(existsSync(DIST)).toBe(true);
    tag = `wdk${process.pid}`;
    const fleet = await tinyFleet({ tag, restartDelayMs: 200 });
    const { child, paused } = await arenaThatPauses(fleet.ids.slice(0, 2), fleet.input);
    const first = watchdogOf(child.pid!)!;
    process.kill(first.pid, 'SIGKILL');
    const second = await waitFor(
      () => {
        const w = watchdogOf(child.pid!);
        return w && w.pid !== first.pid ? w : undefined;
      },
      10_000,
      'a new watchdog',
    );
    expect(second.runDir).toBe(first.runDir);
    for (const pid of paused) expect(procState(pid)).toBe('T');
    // told again what is in force: both paused pids and the start command
    await waitFor(
      () =>
        readFileSync(join(second.runDir, 'watchdog.log'), 'utf8').includes(
          'told 2 paused pid(s), 0 revert(s), 1 start command(s)',
        ),
      10_000,
      'the new watchdog told everything',
    );
    child.kill('SIGKILL');
    await waitFor(() => paused.every((pid) => procState(pid) !== 'T'), 10_000, 'paused pids resumed');
    await waitFor(() => processesMatching(tag).length === 0, 10_000, 'the start command and its workers ended');
  });

  it('exits without touching anything when the run ends normally', async () => {
    expect(existsSync(DIST)).toBe(true);
    const { createProcessTarget } = await import('../../src/targets/process/index.js');
    tag = `wdn${process.pid}`;
    const fleet = await tinyFleet({ tag });
    const target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
    await target.start();
    // ours is the one this test process spawned (other test files may run targets at the same time)
    const mine = processesMatching('watchdog.cjs').filter((p) => p.ppid === process.pid);
    expect(mine).toHaveLength(1);
    await target.stop();
    await waitFor(() => procState(mine[0]!.pid) === undefined, 3000, 'watchdog exit');
    expect(processesMatching(tag)).toEqual([]);
  });
});
