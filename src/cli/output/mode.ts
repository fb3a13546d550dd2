/**
 * One output mode, resolved once per command and passed down:
 * - `tty`: live ink view on stdout, then the final table (a real terminal, not CI);
 * - `plain`: one line per event on stderr, the final table on stdout;
 * - `json`: one JSON document on stdout and nothing else there; events still go to stderr as plain lines.
 */
import chalk from 'chalk';
import type { CliContext } from '../context.js';

export type OutputKind = 'tty' | 'plain' | 'json';

export interface OutputMode {
  kind: OutputKind;
  /** colour on stderr/stdout lines (false under NO_COLOR, --no-color, or no terminal) */
  isColor: boolean;
}

export interface OutputFlags {
  json?: boolean;
  /** commander's `--no-tui` sets `tui: false` */
  tui?: boolean;
  /** commander's `--no-color` sets `color: false` */
  color?: boolean;
}

export function resolveOutputMode(flags: OutputFlags, ctx: Pick<CliContext, 'stdout' | 'stderr' | 'env'>): OutputMode {
  const isCI = isSet(ctx.env.CI);
  const kind: OutputKind = flags.json
    ? 'json'
    : ctx.stdout.isTTY === true && !isCI && flags.tui !== false
      ? 'tty'
      : 'plain';
  // NO_COLOR is honoured whatever its value, per no-color.org, except the empty string
  const noColor = ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '';
  // chalk's level is global: colour only when the table's destination (stdout) is a terminal too
  const isColor = !noColor && flags.color !== false && ctx.stdout.isTTY === true && (kind === 'tty' || ctx.stderr.isTTY === true);
  return { kind, isColor };
}

/** chalk ignores NO_COLOR by itself: silence it globally when colour is off */
export function applyColor(mode: OutputMode): void {
  if (!mode.isColor) chalk.level = 0;
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
