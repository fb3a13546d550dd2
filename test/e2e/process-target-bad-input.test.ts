/**
 * Bad input to a process target: each a clear message naming the cause, a
 * RuntimeError (exit 3), and nothing left running or stopped afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessTarget } from '../../src/targets/process/index.js';
import { processTargetSchema, type ProcessTargetInput } from '../../src/targets/process/spec.js';
import { RuntimeError } from '../../src/shared/errors.js';
import { FLEET_DIR, freePorts, processesMatching, tinyFleet, waitFor } from '../helpers/process-fleet.js';

let tag = '';
let seq = 0;
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) if (c.pid !== undefined && c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function nextTag() {
  tag = `bad${process.pid}x${++seq}`;
  return tag;
}

async function startFails(input: ProcessTargetInput, message: string | RegExp) {
  const target = createProcessTarget(processTargetSchema.parse(input), { baseDir: FLEET_DIR });
  const err = await target.start().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RuntimeError);
  expect((err as RuntimeError).exitCode).toBe(3);
  expect((err as Error).message).toMatch(message);
  // nothing the failed start brought up is left behind
  await waitFor(() => processesMatching(tag).length === 0, 3000, `no process of ${tag} left`);
  return err as RuntimeError;
}

/** the error start() threw; a target that started after all is stopped again */
async function startOrStop(input: ProcessTargetInput): Promise<unknown> {
  const target = createProcessTarget(processTargetSchema.parse(input), { baseDir: FLEET_DIR });
  try {
    await target.start();
  } catch (err) {
    return err;
  }
  await target.stop();
  return undefined;
}

/** a worker started by the test itself, outside any target */
async function ownWorker(id: string, port: number, pidFile?: string) {
  const args = [join(FLEET_DIR, 'worker.mjs'), id, String(port), ...(pidFile ? [pidFile] : [])];
  // in its own session, as an agent the arena may signal must be
  const child = spawn(process.execPath, args, { stdio: 'ignore', detached: true });
  children.push(child);
  await waitFor(() => processesMatching(`tiny-agent ${id}`).some((p) => p.pid === child.pid), 5000, `${id} up`);
  return child;
}

describe('process target: bad input is refused with a reason and leaves nothing behind', { timeout: 45_000 }, () => {
  it('a start command that exits at once', async () => {
    const fleet = await tinyFleet({
      tag: nextTag(),
      edit: (i) => void (i.start!.command = `echo "cannot open config ${tag}" >&2; exit 4`),
    });
    const err = await startFails(fleet.input, /start command .* exited with code 4 before it was ready/);
    expect(err.message).toContain(`cannot open config ${tag}`);
  });

  it('a start command that never gets ready times out and is killed', async () => {
    const fleet = await tinyFleet({
      tag: nextTag(),
      edit: (i) => {
        i.start!.command = `exec node -e "setInterval(()=>{},1000)" ${tag}`;
        i.start!.ready = { http: `http://127.0.0.1:${1}/never`, timeout: '600ms' };
      },
    });
    await startFails(
      fleet.input,
      /was not ready within 600ms: GET http:\/\/127\.0\.0\.1:1\/never kept failing \(.*connection refused\)/,
    );
  });

  it('a pid file that is missing, or names a dead process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-pid-'));
    dirs.push(dir);
    const [port] = await freePorts(1);
    const id = nextTag();
    await ownWorker(id, port!);
    const input: ProcessTargetInput = {
      kind: 'process',
      name: 'pidfile',
      agents: [
        {
          id,
          pid: { file: join(dir, 'w.pid') },
          health: { http: `http://127.0.0.1:${port}/`, interval: '50ms', timeout: '300ms' },
        },
      ],
    };
    const target = (file: string) => {
      const agent = { ...input.agents[0]!, pid: { file: join(dir, file) } };
      return createProcessTarget(processTargetSchema.parse({ ...input, agents: [agent] }), { baseDir: FLEET_DIR });
    };
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.once('exit', r));
    writeFileSync(join(dir, 'dead.pid'), `${dead.pid}\n`);
    // each refusal waits out the time a running fleet gets to be up (~1.5 s): both at once
    await Promise.all([
      expect(target('w.pid').start()).rejects.toThrow(`agent ${id}: pid file ${join(dir, 'w.pid')} does not exist`),
      expect(target('dead.pid').start()).rejects.toThrow(
        `pid file ${join(dir, 'dead.pid')} names pid ${dead.pid}, which is not running`,
      ),
    ]);
    expect(processesMatching(id)).toHaveLength(1); // the user's own worker is never touched
  });

  it('a port nobody listens on, and a probe URL that refuses connections', async () => {
    const [port, free] = await freePorts(2);
    const id = nextTag();
    await ownWorker(id, port!);
    const base = { kind: 'process' as const, name: 'ports' };
    const refused = createProcessTarget(
      processTargetSchema.parse({
        ...base,
        agents: [
          {
            id,
            pid: { port: port! },
            health: { http: `http://127.0.0.1:${free}/healthz`, interval: '50ms', timeout: '300ms' },
          },
        ],
      }),
      { baseDir: FLEET_DIR },
    );
    // two independent refusals, each waiting out the fleet's time to be up: both at once
    await Promise.all([
      expect(
        createProcessTarget(
          processTargetSchema.parse({
            ...base,
            agents: [
              {
                id,
                pid: { port: free! },
                health: { http: `http://127.0.0.1:${port}/`, interval: '50ms', timeout: '300ms' },
              },
            ],
          }),
          { baseDir: FLEET_DIR },
        ).start(),
      ).rejects.toThrow(`agent ${id}: nothing listens on port ${free}`),
      expect(refused.start()).rejects.toThrow(
        new RegExp(
          `agent ${id}: health probe GET http://127.0.0.1:${free}/healthz is not passing \\(.*connection refused\\)`,
        ),
      ),
    ]);
  });

  it('a match that finds two processes, and one that finds none (matches end at a word end)', async () => {
    const [p1, p2] = await freePorts(2);
    const id = nextTag();
    await ownWorker(id, p1!);
    await ownWorker(id, p2!);
    const input: ProcessTargetInput = {
      kind: 'process',
      name: 'ambiguous',
      agents: [
        {
          id: 'w',
          pid: { match: `tiny-agent ${id}` },
          health: { tcp: `127.0.0.1:${p1}`, interval: '50ms', timeout: '300ms' },
        },
      ],
    };
    const prefix: ProcessTargetInput = {
      ...input,
      agents: [{ ...input.agents[0]!, pid: { match: `tiny-agent ${id.slice(0, -1)}` } }],
    };
    // two independent refusals, each waiting out the fleet's time to be up: both at once
    const [err] = await Promise.all([
      startOrStop(input),
      expect(createProcessTarget(processTargetSchema.parse(prefix), { baseDir: FLEET_DIR }).start()).rejects.toThrow(
        `agent w: no running process's command line matches "tiny-agent ${id.slice(0, -1)}"`,
      ),
    ]);
    expect((err as Error).message).toMatch(
      new RegExp(
        `agent w: match "tiny-agent ${id}" finds 2 processes: \\d+ \\(tiny-agent ${id}\\), \\d+ \\(tiny-agent ${id}\\); make it name exactly one`,
      ),
    );
    expect(processesMatching(`tiny-agent ${id}`)).toHaveLength(2);
  });

  it('a hook that fails is a failed fault naming the hook and its output', async () => {
    const fleet = await tinyFleet({
      tag: nextTag(),
      edit: (i) => void (i.hooks = { memory_corrupt: 'echo "no such store for {agent}" >&2; exit 3' }),
    });
    const target = createProcessTarget(fleet.spec, { baseDir: FLEET_DIR });
    try {
      await target.start();
      expect(target.unsupportedFaults().memory_corrupt).toBeUndefined();
      await expect(target.runtime.corruptMemory(fleet.ids[0]!)).rejects.toThrow(
        `memory_corrupt: hook "echo \\"no such store for ${fleet.ids[0]}\\" >&2; exit 3" for agent ${fleet.ids[0]} exited with code 3: no such store for ${fleet.ids[0]}`,
      );
    } finally {
      await target.stop();
    }
    expect(processesMatching(tag)).toEqual([]);
  });
});
