/**
 * Shell completion is generated from the real program: the tree has every command and option, and
 * the bash script, sourced in a real bash, completes commands, options, choices and nested paths.
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import { completionTree } from '../../../src/cli/completion/tree.js';
import { completionScript } from '../../../src/cli/completion/scripts.js';

const sink = { write: () => true };
const program = await buildProgram({
  stdout: sink,
  stderr: sink,
  env: {},
  cwd: process.cwd(),
  signal: new AbortController().signal,
});
const tree = completionTree(program);
const node = (path: string) => tree.find((n) => n.path === path)!;

describe('completion tree', () => {
  it("holds every command path, nested groups included, and leaves out commander's help command", () => {
    const paths = tree.map((n) => n.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '',
        'scenario',
        'scenario run',
        'scenario validate',
        'survival',
        'regress',
        'serve',
        'proxy tcp',
        'proxy llm',
        'proxy mcp',
        'target serve',
        'target check',
        'completion',
      ]),
    );
    expect(paths).not.toContain('help');
    expect(node('').subcommands.map((s) => s.name)).toContain('completion');
  });

  it('knows which options take a value and which values a choice option accepts', () => {
    const seed = node('scenario run').options.find((o) => o.names.includes('--seed'))!;
    expect(seed.takesValue).toBe(true);
    expect(node('scenario run').options.find((o) => o.names.includes('--json'))!.takesValue).toBe(false);
    expect(node('proxy llm').options.find((o) => o.names.includes('--api'))!.choices).toEqual(
      expect.arrayContaining(['openai', 'anthropic']),
    );
    expect(node('completion').argumentChoices).toEqual(['bash', 'zsh', 'fish']);
    expect(node('').options.flatMap((o) => o.names)).toEqual(['-v', '--version', '-h', '--help']);
  });
});

/** what the generated bash completion offers for the words typed so far (the last one being completed) */
async function bashComplete(words: string[]): Promise<string[]> {
  const script = completionScript('bash', tree);
  const probe = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _arena_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = await execa('bash', ['--norc', '--noprofile', '-c', probe], {
    extendEnv: false,
    env: { PATH: process.env.PATH ?? '' },
  });
  return r.stdout.split('\n').filter((l) => l !== '');
}

describe('bash completion (run in bash)', () => {
  it("offers the top-level commands, then a group's subcommands", async () => {
    expect(await bashComplete(['arena', ''])).toEqual([
      'regress',
      'describe',
      'scenario',
      'survival',
      'serve',
      'replay',
      'flight',
      'evolve',
      'proxy',
      'toxiproxy',
      'target',
      'schema',
      'shrink',
      'trials',
      'worker',
      'ps',
      'stop',
      'completion',
    ]);
    expect(await bashComplete(['arena', 'sc'])).toEqual(['scenario', 'schema']);
    expect(await bashComplete(['arena', 'scen'])).toEqual(['scenario']);
    expect(await bashComplete(['arena', 'scenario', ''])).toEqual(['validate', 'run', 'list']);
  });

  it('offers the options of the nested command typed, skipping options before it', async () => {
    expect(await bashComplete(['arena', 'scenario', 'run', '--mi'])).toEqual(['--min-score']);
    expect(await bashComplete(['arena', '--no-color', 'target', 'serve', '--to'])).toEqual(['--token', '--token-file']);
    // `serve` under `target` is not the top-level `serve`: --api-key is only the latter's
    expect(await bashComplete(['arena', 'target', 'serve', '--api'])).toEqual([]);
    expect(await bashComplete(['arena', 'serve', '--api'])).toEqual(['--api-key', '--api-key-file']);
  });

  it("completes an option's choices and a command's argument choices, and leaves free values to file names", async () => {
    expect(await bashComplete(['arena', 'proxy', 'llm', '--api', 'an'])).toEqual(['anthropic']);
    expect(await bashComplete(['arena', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(await bashComplete(['arena', 'scenario', 'run', '--seed', ''])).toEqual([]);
    expect(await bashComplete(['arena', 'scenario', 'run', 'scen'])).toEqual([]);
  });

  it('offers fault names: action types for --actions (after the last comma too), each proxy its own for --fault', async () => {
    expect(await bashComplete(['arena', 'survival', '--actions', 'kill_'])).toEqual([
      'kill_agent',
      'kill_leader',
      'kill_orchestrator',
    ]);
    expect(await bashComplete(['arena', 'survival', '--actions', 'kill_agent,pau'])).toEqual([
      'kill_agent,pause_agent',
    ]);
    expect(await bashComplete(['arena', 'regress', '--actions', 'remove_'])).toEqual(['remove_node', 'remove_edge']);
    expect(await bashComplete(['arena', 'proxy', 'llm', '--fault', 'rate'])).toEqual([
      'rate_limit',
      'rate_limit_storm',
    ]);
    expect(await bashComplete(['arena', 'proxy', 'tcp', '--fault', ''])).toEqual([
      'latency',
      'blackhole',
      'reset',
      'bandwidth',
      'timeout',
    ]);
    expect(await bashComplete(['arena', 'proxy', 'mcp', '--fault', 'tool_'])).toEqual([
      'tool_timeout',
      'tool_error',
      'tool_fault',
    ]);
    // offered, not enforced: the command's own check still words a wrong value
    expect(node('survival').options.find((o) => o.names.includes('--actions'))!.list).toBe(true);
  });
});

describe('zsh and fish scripts', () => {
  it('zsh: a #compdef function that walks the same paths and describes commands with their help line', () => {
    const script = completionScript('zsh', tree);
    expect(script.startsWith('#compdef arena\n')).toBe(true);
    expect(script).toContain("'scenario|run'");
    expect(script).toContain("('proxy llm|--api') compadd -- 'openai' 'anthropic'");
    expect(script).toContain("'completion:Print a shell completion script");
    expect(script).toContain('compdef _arena arena');
    // zsh ties $path to $PATH: the walk must not clobber it
    expect(script).not.toMatch(/\blocal path\b/);
  });

  it('fish: per-path conditions, no file names where a group expects a subcommand, choices exclusive', () => {
    const script = completionScript('fish', tree);
    expect(script).toContain("complete -c arena -n '__arena_at \\'\\'' -f");
    expect(script).toContain("complete -c arena -n '__arena_at \\'scenario\\'' -a 'run'");
    expect(script).toMatch(/complete -c arena -n '__arena_at \\'proxy llm\\'' -l api -x -a 'openai anthropic/);
    expect(script).toMatch(/complete -c arena -n '__arena_at \\'scenario run\\'' -l seed -r -d /);
  });
});
