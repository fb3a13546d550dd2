/** Lazy command registration: only the invoked command's module loads, and help/completion still see them all. */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { type CommandEntry, entriesFor, registerTable } from '../../../src/cli/commands/lazy.js';
import { buildProgram } from '../../../src/cli/main.js';

const sink = { write: () => true };
const ctx = { stdout: sink, stderr: sink, env: {}, cwd: process.cwd(), signal: new AbortController().signal };

/** a table whose loads are counted, each declaring a command with one subcommand */
function countingTable(names: string[], needsAll: string[] = []) {
  const loaded: string[] = [];
  const table: CommandEntry[] = names.map((name) => ({
    name,
    needsAll: needsAll.includes(name),
    load: async () => {
      loaded.push(name);
      return (parent) => {
        parent.command(name).command('sub');
      };
    },
  }));
  return { table, loaded };
}

describe('entriesFor', () => {
  const { table } = countingTable(['a', 'b', 'c'], ['c']);

  it('picks the entry the first word names', () => {
    expect(entriesFor(table, ['b', 'x', '--flag']).map((e) => e.name)).toEqual(['b']);
  });

  it('takes them all for no argv, an option first, an unknown word (for suggestions) or an entry that needs all', () => {
    for (const argv of [undefined, [], ['--help'], ['bb'], ['help', 'a'], ['c', 'bash']]) {
      expect(entriesFor(table, argv).map((e) => e.name)).toEqual(['a', 'b', 'c']);
    }
  });
});

describe('registerTable', () => {
  it('loads only the invoked module and hands it the words after its name', async () => {
    const { table, loaded } = countingTable(['a', 'b', 'c']);
    let seen: readonly string[] | undefined;
    table[1] = { name: 'b', load: async () => (loaded.push('b'), (_parent, _ctx, argv) => void (seen = argv)) };
    await registerTable(new Command(), ctx, table, ['b', 'run', 'file.yaml']);
    expect(loaded).toEqual(['b']);
    expect(seen).toEqual(['run', 'file.yaml']);
  });

  it('declares every command in table order when all are wanted, passing undefined so groups declare all theirs', async () => {
    const { table, loaded } = countingTable(['z', 'a', 'm'], ['m']);
    const program = new Command();
    await registerTable(program, ctx, table, ['m']);
    expect(loaded.sort()).toEqual(['a', 'm', 'z']);
    expect(program.commands.map((c) => c.name())).toEqual(['z', 'a', 'm']);
  });
});

describe('buildProgram', () => {
  it('declares only the invoked command (and only its invoked subcommand) for a command line', async () => {
    const program = await buildProgram(ctx, ['scenario', 'validate', 'x.yaml']);
    expect(program.commands.map((c) => c.name())).toEqual(['scenario']);
    expect(program.commands[0]!.commands.map((c) => c.name())).toEqual(['validate']);
  });

  it('declares every command and subcommand for root help and for completion', async () => {
    const all = (await buildProgram(ctx)).commands.map((c) => c.name());
    expect(all).toEqual(
      expect.arrayContaining(['scenario', 'survival', 'regress', 'evolve', 'proxy', 'target', 'completion']),
    );
    for (const argv of [['--help'], ['completion', 'bash']]) {
      const program = await buildProgram(ctx, argv);
      expect(program.commands.map((c) => c.name())).toEqual(all);
      expect(program.commands.find((c) => c.name() === 'scenario')!.commands.map((c) => c.name())).toEqual([
        'validate',
        'run',
        'list',
      ]);
    }
  });

  it('answers --version without declaring any command', async () => {
    expect((await buildProgram(ctx, ['--version'])).commands).toEqual([]);
  });
});
