/**
 * The command tree shells complete from, read off the commander program itself, so a new
 * command or option is completed without anyone editing a completion script.
 */
import type { Command, Option } from 'commander';

export interface CompletionOption {
  /** e.g. ['--seed'] or ['-v', '--version'] */
  names: string[];
  /** the option is followed by a value (`--seed <n>`) */
  takesValue: boolean;
  /** the values a value-taking option accepts, when it names them */
  choices?: string[];
  /** the value is a comma-separated list of `choices` (`--actions kill_agent,pause_agent`) */
  list?: boolean;
  description: string;
}

export interface CompletionNode {
  /** command names from the root, space-separated: '' for `arena`, 'scenario run' */
  path: string;
  description: string;
  subcommands: { name: string; description: string }[];
  options: CompletionOption[];
  /** the values the command's first argument accepts, when it names them (`completion <shell>`) */
  argumentChoices?: string[];
}

/** one node per command, root first, in declaration order */
export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const children = command.commands.filter((c) => !isHidden(c) && c.name() !== 'help');
    const node: CompletionNode = {
      path,
      description: firstLine(command.description()),
      subcommands: children.map((c) => ({ name: c.name(), description: firstLine(c.description()) })),
      // commander lists --version among the options but adds --help on its own
      options: [...command.options.filter((o) => !o.hidden).map(toOption), HELP],
    };
    const choices = command.registeredArguments[0]?.argChoices;
    if (choices) node.argumentChoices = [...choices];
    nodes.push(node);
    for (const child of children) visit(child, path === '' ? child.name() : `${path} ${child.name()}`);
  };
  visit(program, '');
  return nodes;
}

const HELP: CompletionOption = { names: ['-h', '--help'], takesValue: false, description: 'display help for command' };

/** values offered for an option commander does not restrict (a comma list, or one the command checks itself) */
const offered = new WeakMap<Option, { values: string[]; list: boolean }>();

/**
 * Marks the values a shell offers for this option, without commander refusing others (the command's own
 * check says what is wrong, and where). `list`: the value is comma-separated.
 */
export function offerValues(option: Option, values: readonly string[], options: { list?: boolean } = {}): Option {
  offered.set(option, { values: [...values], list: options.list === true });
  return option;
}

function toOption(option: Command['options'][number]): CompletionOption {
  const names = [option.short, option.long].filter((n): n is string => typeof n === 'string');
  const out: CompletionOption = {
    names,
    takesValue: option.required || option.optional,
    description: firstLine(option.description),
  };
  if (option.argChoices) out.choices = [...option.argChoices];
  const hint = offered.get(option);
  if (hint && !out.choices) {
    out.choices = hint.values;
    if (hint.list) out.list = true;
  }
  return out;
}

// commander keeps `hidden` private on Command; `_hidden` is what .command(name, { hidden: true }) sets
function isHidden(command: Command): boolean {
  return (command as unknown as { _hidden?: boolean })._hidden === true;
}

/** descriptions fit one completion line: first sentence-ish line, trimmed */
function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? '').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
