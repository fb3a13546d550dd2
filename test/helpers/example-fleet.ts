/**
 * A copy of the shipped example fleet (examples/fleet) under `root`, on free ports, so a test can run
 * it beside other copies without 7000-7103 being free. The same copy the example-fleet test makes.
 */
import { cpSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { freePorts } from './process-fleet.js';

export async function exampleFleetCopy(root: string, name: string): Promise<string> {
  return (await copyExamples(root, name, ['fleet']))[0]!;
}

/** examples/fleet-bug (the planted bug shrink finds) beside the examples/fleet it runs from, on free ports */
export async function exampleFleetBugCopy(root: string, name: string): Promise<string> {
  return (await copyExamples(root, name, ['fleet', 'fleet-bug']))[1]!;
}

async function copyExamples(root: string, name: string, examples: string[]): Promise<string[]> {
  const dirs = examples.map((e) => join(root, name, 'examples', e));
  examples.forEach((e, i) =>
    cpSync(join(REPO_ROOT, 'examples', e), dirs[i]!, {
      recursive: true,
      filter: (src) => !src.includes(`${join(e, 'run')}`),
    }),
  );
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, name, 'node_modules'));
  const ports = await freePorts(7);
  const fixed = ['7000', '7001', '7002', '7003', '7101', '7102', '7103'];
  const map: Record<string, number> = Object.fromEntries(fixed.map((p, i) => [p, ports[i]!]));
  for (const dir of dirs)
    for (const file of readdirSync(dir)) {
      if (!/\.(ya?ml|cjs)$/.test(file)) continue;
      const path = join(dir, file);
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace(/\b(7000|7001|7002|7003|7101|7102|7103)\b/g, (p) => String(map[p])),
      );
    }
  return dirs;
}
