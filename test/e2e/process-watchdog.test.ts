/**
 * The watchdog outlives the arena: an arena process (test/fixtures/process-
 * fleet/arena-child.mjs, running the built target from dist) pauses two
 * agents and is then SIGKILLed. No process may stay in state T, and the start
 * command it brought up must be ended too.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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

async function arenaThatPauses(ids: string[], input: unknown) {
  const child = spawn(process.execPath, [CHILD, JSON.stringify(input), FLEET_DIR, ...ids], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`arena child exited with ${code}`)));
  });
  return { child, paused: (JSON.parse(line) as { paused: number[] }).paused };
}

describe('watchdog', { timeout: 45_000 }, () => {
  it('resumes paused pids and ends the start command when the arena is SIGKILLed mid-pause', async () => {
    expect(existsSync(DIST), 'run `npm run build` first: the arena child runs the built target').toBe(true);
    tag = `wd${process.pid}`;
    const fleet = await tinyFleet({ tag, restartDelayMs: 200 });
    const { child, paused } = await arenaThatPauses(fleet.ids.slice(0, 2), fleet.input);
    expect(paused).toHaveLength(2);
    for (const pid of paused) expect(procState(pid)).toBe('T');
    const watchdog = processesMatching('watchdog.cjs').filter((p) => p.cmd.includes('chaos-arena-process-'));
    expect(watchdog.length).toBeGreaterThan(0);

    child.kill('SIGKILL');
    // every paused pid is continued (and then, with the fleet, terminated): none is left in state T
    await waitFor(() => paused.every((pid) => procState(pid) !== 'T'), 3000, 'paused pids resumed');
    await waitFor(() => processesMatching(tag).length === 0, 5000, 'the start command and its workers ended');
    for (const pid of paused) expect(procState(pid) ?? 'gone').not.toBe('T');
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
