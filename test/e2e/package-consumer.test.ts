/**
 * The package as a user installs it: `npm pack` the built tree, unpack the tarball into a scratch
 * consumer project, compile a TypeScript program against the published types, then run it and
 * record every bare module it loads. Needs dist/ (`npm test` builds first). The consumer compiles
 * with skipLibCheck (checking every dependency's declarations takes half a minute); instead its
 * program fails to compile if a public type it uses degrades to `any`, and a separate test checks
 * that every relative import in the shipped declarations names a shipped file.
 */
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';
import { PACK_ENV as ENV, packIntoConsumer } from '../helpers/packed.js';

const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const TRACE = join(REPO_ROOT, 'test/fixtures/trace-imports.mjs');

let scratch: string;
let packed: { size: number; unpackedSize: number; files: { path: string }[] };
let installed: string;

const CONSUMER = `import {
  ACTION_TYPES, createAction, createEmbeddedTarget, parseDuration, UsageError,
  type ActionType, type ArenaRoot, type ScenarioReport, type Target,
} from 'chaos-arena';
import { MemoryEventStore } from 'chaos-arena/stores';
import type { TcpProxyOptions } from 'chaos-arena/proxies';

const kinds: readonly ActionType[] = ACTION_TYPES;
const action = createAction('kill_agent', 'agent-1', { metadata: { duration_ms: parseDuration('2s') } });
const store = new MemoryEventStore();
await store.append('consumer', [{ type: 'checked', data: { kinds: kinds.length } }], 0);
let refused = '';
try {
  parseDuration('soon');
} catch (err) {
  if (err instanceof UsageError) refused = err.code;
}
// a public type that lost its declaration would be \`any\` under skipLibCheck: make that a compile error
type IsAny<T> = 0 extends 1 & T ? true : false;
type Typed<T> = IsAny<T> extends true ? never : true;
const typed: [Typed<Target>, Typed<ArenaRoot>, Typed<ScenarioReport>, Typed<TcpProxyOptions>, Typed<typeof createEmbeddedTarget>] = [true, true, true, true, true];
const report: ScenarioReport | undefined = undefined;
const root: ArenaRoot | undefined = undefined;
const proxy: Partial<TcpProxyOptions> = {};
console.log(JSON.stringify({ action: action.type, events: (await store.read('consumer')).length, refused, unused: [report, root, proxy, typed].length }));

// using the embedded runtime is what loads the MCP SDK (its agents talk to an in-process MCP server)
process.stderr.write('PHASE target\\n');
const target: Target = createEmbeddedTarget({ seed: 7 });
await target.stop();
process.stderr.write('PHASE done ' + target.kind + '\\n');
`;

beforeAll(async () => {
  ({ scratch, installed, packed } = await packIntoConsumer('consumer-', CONSUMER));
}, 60_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** every file under dir, relative to it */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(installed, path)];
  });
}

describe('the packed package', () => {
  it('holds what a user runs and nothing else: no tests, sources or CLI declarations', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'bin/arena.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cli/main.js',
        'dist/cli/view/mount.js',
        'dist/web/index.html',
      ]),
    );
    const stray = paths.filter(
      (p) =>
        !/^(LICENSE|README\.md|package\.json|bin\/arena\.js|bin\/package\.json|dist\/build-complete\.json|dist\/.+\.(js|js\.map|d\.ts|html|css)|(scenarios|strategies)\/[\w-]+\.yaml|schemas\/[\w-]+\.schema\.json)$/.test(
          p,
        ) ||
        // the CLI is no library: its modules ship, its declarations do not
        /^dist\/cli\/.+\.d\.ts$/.test(p),
    );
    expect(stray).toEqual([]);
    // about 1,730 kB with trials, safety and tracing (tsc's modules and their source maps, which carry the
    // TypeScript they were compiled from, about half each): a jump means something unintended got in
    expect(packed.size).toBeLessThan(2_000_000);
  });

  it('ships a source map beside each module, carrying its TypeScript: no map names a file the package lacks', () => {
    const modules = walk(installed).filter(
      (p) => p.startsWith('dist/') && p.endsWith('.js') && !p.startsWith('dist/web/'),
    );
    expect(modules.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const file of modules) {
      const text = readFileSync(join(installed, file), 'utf8');
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1];
      if (url !== `${file.split('/').pop()}.map`) {
        problems.push(`${file}: sourceMappingURL ${url}`);
        continue;
      }
      const map = JSON.parse(readFileSync(join(installed, `${file}.map`), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      if (map.sources.length === 0 || map.sources.some((_, i) => typeof map.sourcesContent?.[i] !== 'string'))
        problems.push(`${file}.map: sources without their content`);
    }
    expect(problems).toEqual([]);
  });

  it("a stack trace points at the package's dist/**/*.js, and at its TypeScript with --enable-source-maps", async () => {
    const script =
      "import { loadScenario } from 'chaos-arena'; try { loadScenario('{}'); } catch (err) { console.log(err.stack); }";
    const stack = (flags: string[]) =>
      execa('node', [...flags, '--input-type=module', '-e', script], { cwd: scratch, extendEnv: false, env: ENV });
    const plain = await stack([]);
    expect(plain.stdout).toMatch(/node_modules\/chaos-arena\/dist\/arena\/scenario\/load\.js:\d+:\d+/);
    const mapped = await stack(['--enable-source-maps']);
    expect(mapped.stdout).toMatch(/node_modules\/chaos-arena\/src\/arena\/scenario\/load\.ts:\d+:\d+/);
  });

  it('its CLI runs from the package and its dependencies: validate, and a survival run on the embedded target', async () => {
    // the unpacked package's own files; its dependencies resolve from the repo's node_modules, as a
    // consumer's would from its own
    const bin = join(installed, 'bin/arena.js');
    // Node's compile cache (22.1 and later) goes with the scratch project, not into the temporary directory
    const run = (args: string[]) =>
      execa('node', [bin, ...args], {
        cwd: installed,
        reject: false,
        extendEnv: false,
        env: { ...ENV, NODE_COMPILE_CACHE: join(scratch, '.cache') },
      });
    const validate = await run(['scenario', 'validate', 'scenarios/leader-failover.yaml', 'scenarios/dag-damage.yaml']);
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toMatch(/^ok scenarios\/leader-failover\.yaml: leader-failover \(3 actions\)$/m);
    expect(validate.exitCode).toBe(0);
    // a short survival runs the embedded runtime, its MCP servers and the score
    const survival = await run(['survival', '--duration', '1s', '--interval', '200ms', '--json']);
    expect(survival.exitCode, survival.stderr).toBe(0);
    const report = JSON.parse(survival.stdout) as { survival: { status: string; actions_run: number } };
    expect(report.survival.status).toBe('passed');
    expect(report.survival.actions_run).toBeGreaterThan(0);
  }, 30_000);

  it('ships declarations that do not depend on better-sqlite3 types (a devDependency)', () => {
    const declarations = walk(installed).filter((p) => p.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(50);
    expect(declarations.filter((p) => /['"]better-sqlite3['"]/.test(readFileSync(join(installed, p), 'utf8')))).toEqual(
      [],
    );
  });

  it('ships declarations whose relative imports all name shipped files', () => {
    const missing: string[] = [];
    for (const file of walk(installed).filter((p) => p.endsWith('.d.ts'))) {
      const text = readFileSync(join(installed, file), 'utf8');
      for (const [, spec] of text.matchAll(/(?:from |import\()['"](\.{1,2}\/[^'"]+)\.js['"]/g)) {
        const target = join(installed, file, '..', `${spec}.d.ts`);
        if (!existsSync(target)) missing.push(`${file} → ${spec}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('a TypeScript consumer compiles against the types and imports it without loading SQLite, pg or the MCP SDK', async () => {
    const compiled = await execa('node', [TSC, '-p', scratch], {
      cwd: scratch,
      reject: false,
      extendEnv: false,
      env: ENV,
    });
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.exitCode).toBe(0);

    const run = await execa('node', ['--import', TRACE, 'out/main.js'], {
      cwd: scratch,
      reject: false,
      extendEnv: false,
      env: ENV,
    });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ action: 'kill_agent', events: 1, refused: expect.any(String), unused: 4 });
    const [imported, usingTarget] = run.stderr.split('PHASE target\n');
    const modules = (text: string) =>
      new Set(
        text
          .split('\n')
          .filter((l) => l.startsWith('IMPORT '))
          .map((l) => l.slice('IMPORT '.length)),
      );
    const loaded = modules(imported!);
    expect(loaded).toContain('chaos-arena'); // the trace works
    expect([...loaded].filter((m) => /^(better-sqlite3|pg|@modelcontextprotocol\/|@opentelemetry\/)/.test(m))).toEqual(
      [],
    );
    // lazy, not missing: the embedded runtime imports the SDK once it is used
    expect([...modules(usingTarget!)].filter((m) => m.startsWith('@modelcontextprotocol/sdk/'))).not.toEqual([]);
    expect(usingTarget).toContain('PHASE done embedded');
  }, 60_000);
});
