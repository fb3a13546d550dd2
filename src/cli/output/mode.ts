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
  /** colour on stderr/stdout lines (false under NO_COLOR, --no-color, or no terminal unless FORCE_COLOR) */
  isColor: boolean;
  /** chalk level FORCE_COLOR asks for (1 basic, 2 256 colours, 3 truecolor), when it forces colour on */
  forcedLevel?: 1 | 2 | 3;
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
  const isTerminalColor = !noColor && ctx.stdout.isTTY === true && (kind === 'tty' || ctx.stderr.isTTY === true);
  // FORCE_COLOR (as Node and chalk read it) wins over NO_COLOR and a pipe, e.g. for CI logs that render ANSI;
  // only an explicit --no-color beats it
  const forced = forceColorLevel(ctx.env.FORCE_COLOR);
  if (flags.color === false || forced === 0) return { kind, isColor: false };
  if (forced !== undefined) return { kind, isColor: true, forcedLevel: forced };
  return { kind, isColor: isTerminalColor };
}

/** FORCE_COLOR: unset → undefined; 0/false → 0 (off); ''/true/1 → 1; 2 → 2; 3 → 3 */
function forceColorLevel(value: string | undefined): 0 | 1 | 2 | 3 | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === '0' || v === 'false') return 0;
  if (v === '2' || v === '3') return Number(v) as 2 | 3;
  return 1;
}

/** chalk ignores NO_COLOR and our --no-color by itself: set its global level from the mode */
export function applyColor(mode: OutputMode): void {
  if (!mode.isColor) chalk.level = 0;
  else if (mode.forcedLevel !== undefined) chalk.level = mode.forcedLevel;
}

function isSet(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
