/**
 * Final tables fitted to the terminal: a cli-table3 table wider than stdout's
 * columns wrapped into broken boxes. On a terminal the widest columns shrink
 * until the table fits (text wraps, a long word is cut with an ellipsis); off a
 * terminal the table is left as it is, so piped output and tests do not change.
 */
import { stripVTControlCharacters } from 'node:util';
import type Table from 'cli-table3';
import type { Writer } from '../context.js';

/** a column keeps at least this many characters (padding included) before the table is left wider */
const MIN_COLUMN = 6;
/** prose columns wrap down to this width before other columns are cut */
const PROSE_FLOOR = 12;

/** stdout's width when it is a terminal that reports one; otherwise undefined (do not fit) */
export function terminalWidth(out: Pick<Writer, 'isTTY' | 'columns'>): number | undefined {
  return out.isTTY === true && typeof out.columns === 'number' && out.columns > 0 ? out.columns : undefined;
}

/** the table as text, no wider than `width` columns when a width is given and the columns can shrink that far */
export function renderFitted(table: Table.Table, width: number | undefined): string {
  const options = table.options as unknown as {
    head: unknown[];
    colWidths: Array<number | null>;
    rowHeights: Array<number | null>;
    wordWrap: boolean;
    style: { 'padding-left': number; 'padding-right': number };
  };
  // toString writes the widths and heights it computed into these arrays: keep what the caller asked for
  const explicitWidths = [...(options.colWidths ?? [])];
  const explicitHeights = [...(options.rowHeights ?? [])];
  const text = table.toString();
  if (width === undefined || widest(text) <= width) return text;
  const padding = (options.style['padding-left'] ?? 1) + (options.style['padding-right'] ?? 1);
  const rows = [options.head, ...table];
  const widths = naturalWidths(rows, padding);
  if (widths.length === 0) return text;
  // an explicit colWidths is a ceiling the natural width may fall below
  for (const [i, w] of explicitWidths.entries()) if (typeof w === 'number') widths[i] = Math.min(widths[i]!, w);
  const budget = width - (widths.length + 1); // one border character between and around the columns
  // prose (cells with spaces) wraps first; names, paths and numbers are cut with an ellipsis only if that is not enough
  const prose = proseColumns(rows);
  shrink(widths, budget, (i) => prose.has(i), PROSE_FLOOR);
  shrink(widths, budget, () => true, MIN_COLUMN);
  options.colWidths = widths;
  options.rowHeights = explicitHeights;
  options.wordWrap = true;
  return table.toString();
}

/** shrinks the widest eligible column one character at a time until the total fits or all reach the floor */
function shrink(widths: number[], budget: number, eligible: (i: number) => boolean, floor: number): void {
  let total = widths.reduce((sum, w) => sum + w, 0);
  while (total > budget) {
    let i = -1;
    for (let j = 0; j < widths.length; j++)
      if (eligible(j) && widths[j]! > floor && (i < 0 || widths[j]! > widths[i]!)) i = j;
    if (i < 0) return;
    widths[i]!--;
    total--;
  }
}

function proseColumns(rows: readonly unknown[]): Set<number> {
  const prose = new Set<number>();
  for (const row of rows)
    cellsOf(row).forEach((cell, i) => {
      if (/\S\s+\S/.test(stripVTControlCharacters(cellText(cell)))) prose.add(i);
    });
  return prose;
}

function cellsOf(row: unknown): unknown[] {
  if (row === undefined || row === null) return [];
  // a vertical table's row is {key: value}: two columns
  return Array.isArray(row) ? row : typeof row === 'object' ? Object.entries(row).flat() : [row];
}

function naturalWidths(rows: readonly unknown[], padding: number): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    cellsOf(row).forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, widest(cellText(cell)) + padding);
    });
  }
  return widths;
}

function cellText(cell: unknown): string {
  if (cell !== null && typeof cell === 'object' && 'content' in cell) return String(cell.content);
  return cell === null || cell === undefined ? '' : String(cell);
}

/** visible width: colour codes stripped, one column per code point (the tables hold no wide characters) */
function widest(text: string): number {
  return Math.max(0, ...text.split('\n').map((line) => [...stripVTControlCharacters(line)].length));
}
