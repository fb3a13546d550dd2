/** `arena completion bash|zsh|fish`: prints a completion script for the shell, generated from this program's commands. */
import { Argument, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { examples } from './options.js';
import { completionTree } from '../completion/tree.js';
import { completionScript, SHELLS, type Shell } from '../completion/scripts.js';

export function registerCompletionCommand(program: Command, ctx: CliContext): void {
  const command = program
    .command('completion')
    .description('Print a shell completion script (commands, options and their choices) for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action((shell: Shell) => {
      ctx.stdout.write(completionScript(shell, completionTree(program)));
    });
  examples(command, [
    'source <(arena completion bash)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a zsh expansion the user types, not a template
    'arena completion zsh > "${fpath[1]}/_arena"',
    'arena completion fish > ~/.config/fish/completions/arena.fish',
  ]);
}
