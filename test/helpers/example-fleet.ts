/**
 * A copy of the shipped example fleet (examples/fleet) under `root`, on free ports, so a test can run
 * it beside other copies without 7000-7103 being free. The same copy the example-fleet test makes.
 */
import { cpSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { freePorts } from './process-fleet.js';

export async function exampleFleetCopy(root: string, name: string): Promise<string> {
  const fleetDir = join(root, name, 'examples', 'fleet');
  cpSync(join(REPO_ROOT, 'examples', 'fleet'), fleetDir, {
    recursive: true,
    filter: (src) => !src.includes(`${join('fleet', 'run')}`),
  });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, name, 'node_modules'));
  const ports = await freePorts(7);
  const fixed = ['7000', '7001', '7002', '7003', '7101', '7102', '7103'];
  const map: Record<string, number> = Object.fromEntries(fixed.map((p, i) => [p, ports[i]!]));
  for (const file of readdirSync(fleetDir)) {
    if (!/\.(ya?ml|cjs)$/.test(file)) continue;
    const path = join(fleetDir, file);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/\b(7000|7001|7002|7003|7101|7102|7103)\b/g, (p) => String(map[p])),
    );
  }
  return fleetDir;
}
