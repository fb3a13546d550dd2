/**
 * A copy of the shipped example fleet (examples/fleet) under `root` (its own `run/` folder, and a path
 * the test can find its processes by) with a free base port in `env` (ARENA_EXAMPLE_PORT, the one port
 * setting of the example's target files), so a test can run it beside other copies without 7000-7103
 * being free.
 */
import { cpSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { freeBasePort } from './process-fleet.js';

/** the example fleet's ports, as offsets from its base: front door, TCP proxies, workers */
const FLEET_OFFSETS = [0, 1, 2, 3, 101, 102, 103];

export interface ExampleFleetCopy {
  dir: string;
  /** for the arena that runs it: ARENA_EXAMPLE_PORT */
  env: { ARENA_EXAMPLE_PORT: string };
}

export async function exampleFleetCopy(root: string, name: string): Promise<ExampleFleetCopy> {
  const [dir] = copyExamples(root, name, ['fleet']);
  return { dir: dir!, env: { ARENA_EXAMPLE_PORT: String(await freeBasePort(FLEET_OFFSETS)) } };
}

/** examples/fleet-bug (the planted bug shrink finds) beside the examples/fleet it runs from */
export async function exampleFleetBugCopy(root: string, name: string): Promise<ExampleFleetCopy> {
  const [, dir] = copyExamples(root, name, ['fleet', 'fleet-bug']);
  return { dir: dir!, env: { ARENA_EXAMPLE_PORT: String(await freeBasePort(FLEET_OFFSETS)) } };
}

function copyExamples(root: string, name: string, examples: string[]): string[] {
  const dirs = examples.map((e) => join(root, name, 'examples', e));
  examples.forEach((e, i) =>
    cpSync(join(REPO_ROOT, 'examples', e), dirs[i]!, {
      recursive: true,
      filter: (src) => !src.includes(`${join(e, 'run')}`),
    }),
  );
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, name, 'node_modules'));
  return dirs;
}
