/**
 * The package as a user installs it: `npm pack` the built tree into a scratch consumer project under
 * test-artifacts/ (inside the repo and git-ignored, so the unpacked package resolves its dependencies
 * from the repo's node_modules), unpack it as node_modules/chaos-arena, and give the project a package.json and a
 * strict NodeNext tsconfig that compiles `main.ts`. Needs dist/ (`npm test` builds first).
 */
import { execa } from 'execa';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export const PACK_ENV = { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' };

export interface PackedConsumer {
  /** the consumer project's folder (remove it in afterAll) */
  scratch: string;
  /** where the package was unpacked */
  installed: string;
  /** what `npm pack --json` said of the tarball */
  packed: { size: number; unpackedSize: number; files: { path: string }[] };
}

export async function packIntoConsumer(prefix: string, mainTs: string): Promise<PackedConsumer> {
  if (!existsSync(join(REPO_ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const artifacts = join(REPO_ROOT, 'test-artifacts');
  mkdirSync(artifacts, { recursive: true });
  const scratch = mkdtempSync(join(artifacts, prefix));
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
    cwd: REPO_ROOT,
    extendEnv: false,
    env: PACK_ENV,
  });
  const packed = JSON.parse(pack.stdout)[0] as PackedConsumer['packed'] & { filename: string };
  const installed = join(scratch, 'node_modules/chaos-arena');
  mkdirSync(installed, { recursive: true });
  await execa('tar', ['-xzf', join(scratch, packed.filename), '-C', installed, '--strip-components=1']);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    outDir: 'out',
  };
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['main.ts'] }));
  writeFileSync(join(scratch, 'main.ts'), mainTs);
  return { scratch, installed, packed };
}
