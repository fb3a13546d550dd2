/**
 * A CLI run registers itself in the run directory while it lasts (DESIGN §16), so `arena ps` lists it and
 * `arena stop` from another terminal can end it through its interrupt path. A directory that cannot be
 * written costs the run nothing but that: it is said, and the run goes on (Ctrl-C still stops it).
 */
import { errorMessage } from '../../shared/errors.js';
import { registerRun, type RegisteredRun } from '../../shared/runs/registry.js';
import type { CliContext } from '../context.js';

export async function whileRegistered<T>(ctx: CliContext, command: string, fn: () => Promise<T>): Promise<T> {
  let run: RegisteredRun | undefined;
  try {
    run = registerRun(ctx.env, { command, cwd: ctx.cwd, stopBy: 'signal' });
    ctx.stderr.write(`${command}: run ${run.entry.run_id} (arena stop ${run.entry.run_id} ends it)\n`);
  } catch (err) {
    ctx.stderr.write(`arena: this run is not in the run directory, arena stop will not see it: ${errorMessage(err)}\n`);
  }
  try {
    return await fn();
  } finally {
    run?.unregister();
  }
}
