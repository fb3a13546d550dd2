/**
 * Lazy command registration: a command group is a table of names, each with a `load()` of the
 * module that declares it. Only the module of the command actually invoked is imported, so
 * `arena scenario validate` does not pay for the engine, ink or the server at start-up.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

/**
 * Declares a command on its parent. `argv` holds the words after the parent's name (so a group can
 * load only the subcommand invoked), or is undefined when the whole tree is wanted.
 */
export type RegisterCommand = (parent: Command, ctx: CliContext, argv?: readonly string[]) => void | Promise<void>;

export interface CommandEntry {
  name: string;
  load(): Promise<RegisterCommand>;
  /** reads the whole command tree when it runs (completion), so every other command loads too */
  needsAll?: boolean;
}

/**
 * The entries to load for `argv`: the one its first word names, or all of them when it names none
 * (root help, `help <cmd>`, a typo commander suggests a fix for) or names one that needs them all.
 */
export function entriesFor(
  table: readonly CommandEntry[],
  argv: readonly string[] | undefined,
): readonly CommandEntry[] {
  if (argv === undefined) return table;
  const invoked = table.find((e) => e.name === argv[0]);
  if (invoked === undefined || invoked.needsAll) return table;
  return [invoked];
}

/** imports the selected modules in parallel and declares them in table order (the help lists them so) */
export async function registerTable(
  parent: Command,
  ctx: CliContext,
  table: readonly CommandEntry[],
  argv: readonly string[] | undefined,
): Promise<void> {
  const entries = entriesFor(table, argv);
  const wantsAll = entries.length > 1 || entries[0]?.needsAll === true;
  const registers = await Promise.all(entries.map((e) => e.load()));
  for (const register of registers) await register(parent, ctx, wantsAll ? undefined : argv?.slice(1));
}
