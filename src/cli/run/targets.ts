/**
 * Which target a run command attacks: `--target FILE`, else the scenario's
 * own `config.target` (relative to the scenario file), else the embedded
 * runtime with `--strategy` if given. Files are validated before anything
 * starts.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Target } from '../../arena/providers.js';
import { UsageError } from '../../shared/errors.js';
import type { CliContext } from '../context.js';
import type { Tracing } from '../../shared/otlp/tracing.js';

/** what a run gives the target it builds: --otlp's tracing (a process target's LLM proxies trace each call) */
export interface TargetExtras {
  tracing?: Tracing;
}

export interface TargetChoice {
  /** 'embedded' or the target file's name */
  name: string;
  kind: string;
  file?: string;
  create(seed: number, extras?: TargetExtras): Promise<Target>;
}

export interface TargetFlags {
  target?: string;
  strategy?: string;
}

export async function chooseTarget(
  flags: TargetFlags,
  ctx: CliContext,
  scenario?: { target?: string; file?: string },
): Promise<TargetChoice> {
  const { loadStrategyFile } = await import('../../runtime/strategy.js');
  const strategy = flags.strategy ? await loadStrategyFile(resolve(ctx.cwd, flags.strategy)) : undefined;
  const fromScenario =
    scenario?.target !== undefined && scenario.file !== undefined
      ? resolve(ctx.cwd, dirname(scenario.file), scenario.target)
      : undefined;
  const path = flags.target !== undefined ? resolve(ctx.cwd, flags.target) : fromScenario;
  if (path === undefined) {
    const { createEmbeddedTarget } = await import('../../targets/embedded/index.js');
    return { name: 'embedded', kind: 'embedded', create: async (seed) => createEmbeddedTarget({ strategy, seed }) };
  }
  const { loadTargetFile } = await import('../../targets/file.js');
  const shown = flags.target ?? scenario!.target!;
  const loaded = await loadTargetFile(path, shown);
  if (strategy !== undefined && loaded.kind !== 'embedded') {
    throw new UsageError(
      `--strategy applies to the embedded runtime only; target ${loaded.name} in ${shown} is kind ${loaded.kind}`,
      { code: 'strategy_not_applicable' },
    );
  }
  return {
    name: loaded.name,
    kind: loaded.kind,
    file: shown,
    create: (seed, extras = {}) =>
      loaded.create({
        seed,
        ...(strategy !== undefined ? { strategy } : {}),
        env: ctx.env,
        signal: ctx.signal,
        ...extras,
      }),
  };
}

/**
 * A target file as a run on the queue names it (src/arena/queue): relative to the directory this
 * command runs in when it is inside it (a worker resolves it against its own checkout, `arena worker
 * --dir`), else absolute (a worker on this machine, or one with the same path).
 */
export function targetRefPath(cwd: string, file: string): string {
  const absolute = resolve(cwd, file);
  const rel = relative(cwd, absolute);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}
