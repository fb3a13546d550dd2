/**
 * Target files (DESIGN §9): YAML with `kind` and `name`, each kind described
 * by one zod schema. Every problem is reported at once with its line:column,
 * like scenario files; unknown kinds and unknown keys are errors. A loaded
 * file builds a fresh target per run (scenario runs and regress arms never
 * share one).
 */
import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import type { Target } from '../arena/providers.js';
import type { Clock } from '../shared/clock.js';
import type { Environment } from '../shared/env-interpolation.js';
import { UsageError } from '../shared/errors.js';
import { readSmallFile } from '../shared/files.js';
import type { Random } from '../shared/random.js';
import type { Tracing } from '../shared/otlp/tracing.js';
import {
  formatSourceProblems,
  isJsonPath,
  MAX_YAML_BYTES,
  parseYamlSource,
  type SourceProblem,
} from '../shared/yaml-source.js';
import { zodProblems } from '../shared/zod-problems.js';
import { embeddedTargetSchema } from './embedded/spec.js';
import { processTargetSchema } from './process/spec.js';
import { remoteTargetSchema } from './remote/spec.js';

export interface TargetBuildOptions {
  seed?: number;
  /** a strategy given on the command line; wins over the file's own (embedded only) */
  strategy?: unknown;
  clock?: Clock;
  random?: Random;
  env?: NodeJS.ProcessEnv;
  /** the command's interrupt (Ctrl-C / SIGTERM): ends calls to a remote target that are waiting */
  signal?: AbortSignal;
  /** false: no steady-state workload (trials, whose calls it would mix with); default on */
  workload?: boolean;
  /** OpenTelemetry tracing of the run (--otlp): the LLM proxies a process target starts trace each call with it */
  tracing?: Tracing;
}

export interface LoadedTargetFile {
  kind: string;
  name: string;
  /** the file as given, for messages */
  file: string;
  /** builds a fresh, not yet started target */
  create(options?: TargetBuildOptions): Promise<Target>;
}

interface KindEntry {
  schema: z.ZodType;
  build(spec: never, baseDir: string, options: TargetBuildOptions): Promise<Target>;
}

/** One entry per kind: its schema and how to build it; loaded lazily, so `validate` stays light. */
const KINDS: Record<string, KindEntry> = {
  embedded: {
    schema: embeddedTargetSchema,
    async build(spec: z.output<typeof embeddedTargetSchema>, baseDir, options) {
      const { createEmbeddedTarget } = await import('./embedded/index.js');
      const { loadStrategyFile } = await import('../runtime/strategy.js');
      const strategy =
        options.strategy ?? (spec.strategy ? await loadStrategyFile(resolve(baseDir, spec.strategy)) : undefined);
      return createEmbeddedTarget({
        name: spec.name,
        strategy,
        ...(options.seed !== undefined ? { seed: options.seed } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(spec.workload_rate !== undefined ? { workloadRate: spec.workload_rate } : {}),
        ...(options.workload !== undefined ? { workload: options.workload } : {}),
      });
    },
  },
  process: {
    schema: processTargetSchema,
    async build(spec: z.output<typeof processTargetSchema>, baseDir, options) {
      const { createProcessTarget } = await import('./process/index.js');
      return createProcessTarget(spec, {
        baseDir: resolve(baseDir),
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.random ? { random: options.random } : {}),
        ...(options.workload !== undefined ? { workload: options.workload } : {}),
        ...(options.tracing ? { tracing: options.tracing } : {}),
      });
    },
  },
  remote: {
    schema: remoteTargetSchema,
    async build(spec: z.output<typeof remoteTargetSchema>, _baseDir, options) {
      const { createRemoteTarget } = await import('./remote/target.js');
      return createRemoteTarget(spec, {
        env: options.env ?? process.env,
        ...(options.clock ? { clock: options.clock } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
  },
};

export const TARGET_KINDS = Object.keys(KINDS);

/**
 * Validates target text; `problems` is empty when it is valid. `${NAME}` references in values are
 * replaced from `env` first (env-interpolation.ts), so one file serves other ports or hosts.
 */
export function checkTargetText(
  text: string,
  path?: string,
  env: Environment = process.env,
): {
  problems: SourceProblem[];
  spec?: { kind: string; name: string } & Record<string, unknown>;
} {
  const source = parseYamlSource(text, MAX_YAML_BYTES, { json: isJsonPath(path), env });
  if (source.errors.length > 0) return { problems: source.errors };
  const value = source.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { problems: [{ path: '', message: 'a target file is a mapping with at least `kind` and `name`' }] };
  }
  const kind = (value as Record<string, unknown>).kind;
  if (kind === undefined)
    return { problems: [source.locate({ path: 'kind', message: `required: one of ${TARGET_KINDS.join(', ')}` })] };
  const entry = typeof kind === 'string' ? KINDS[kind] : undefined;
  if (!entry)
    return {
      problems: [
        source.locate({
          path: 'kind',
          message: `unknown kind ${JSON.stringify(kind)} (expected ${TARGET_KINDS.join(', ')})`,
        }),
      ],
    };
  const parsed = entry.schema.safeParse(value);
  if (!parsed.success) {
    const problems = zodProblems(parsed.error).map((p) => source.locate(p));
    problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
    return { problems };
  }
  return { problems: [], spec: parsed.data as { kind: string; name: string } };
}

/** Reads and validates a target file; every problem at once (exit 2) and nothing started. */
export async function loadTargetFile(
  path: string,
  shownAs = path,
  env: Environment = process.env,
): Promise<LoadedTargetFile> {
  const text = await readSmallFile(path, MAX_YAML_BYTES, 'target');
  const { problems, spec } = checkTargetText(text, path, env);
  if (!spec) {
    throw new UsageError(`target file ${shownAs} is invalid:\n${formatSourceProblems(problems, shownAs)}`, {
      code: 'invalid_target',
      details: problems,
    });
  }
  const entry = KINDS[spec.kind]!;
  const baseDir = dirname(path);
  return {
    kind: spec.kind,
    name: spec.name,
    file: shownAs,
    create: (options = {}) => entry.build(spec as never, baseDir, options),
  };
}
