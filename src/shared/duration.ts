/**
 * Durations are written with units (`250ms`, `2s`, `1m30s`, `1h`) or as integer
 * milliseconds, from 0 up to 24 h (DESIGN §3). Anything longer, non-finite or
 * malformed (`1h1h`, `30s1m`) is rejected with a message that says what is
 * wrong, never silently shortened: Node fires a timer armed with more than
 * 2^31−1 ms after 1 ms, so an unchecked `delay: 99999h` used to act at once.
 */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
/** units in descending order, each at most once: `1h30m`, `1m30s`, `2s500ms` */
const UNIT_ORDER = ['h', 'm', 's', 'ms'];
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

const HINT = 'use a number of milliseconds or a string such as "250ms", "2s", "1m30s"';

export function parseDuration(input: unknown): number {
  const ms = tryParseDuration(input);
  if (ms === undefined) throw new TypeError(durationProblem(input) ?? `invalid duration ${JSON.stringify(input)}`);
  return ms;
}

/** the duration in milliseconds, or undefined when the input is not a valid duration from 0 to 24 h */
export function tryParseDuration(input: unknown): number | undefined {
  const r = readDuration(input);
  return typeof r === 'number' ? r : undefined;
}

/**
 * What is wrong with a duration, as a sentence (`invalid duration "1h1h": …`,
 * `duration "99999h" is longer than 24h`), or undefined when it is valid.
 */
export function durationProblem(input: unknown): string | undefined {
  const r = readDuration(input);
  return typeof r === 'number' ? undefined : r.problem;
}

function readDuration(input: unknown): number | { problem: string } {
  const shown = safeJson(input);
  const invalid = (why?: string) => ({ problem: `invalid duration ${shown}: ${why ? `${why}; ` : ''}${HINT}` });
  const tooLong = { problem: `duration ${shown} is longer than the 24h limit` };
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return invalid('not a finite number');
    if (input < 0) return invalid('must not be negative');
    if (!Number.isInteger(input)) return invalid('milliseconds must be a whole number');
    return input > MAX_DURATION_MS ? tooLong : input;
  }
  if (typeof input !== 'string') return invalid();
  const text = input.trim();
  if (text === '') return invalid('empty');
  if (text.startsWith('-')) return invalid('must not be negative');
  if (/^\d+$/.test(text)) {
    const ms = Number(text);
    return ms > MAX_DURATION_MS ? tooLong : ms;
  }
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  let lastUnit = -1;
  let match: RegExpExecArray | null;
  while ((match = PART.exec(text)) !== null) {
    const unit = UNIT_ORDER.indexOf(match[2]!);
    // `1h1h` or `30s1m` is a typo, not a sum: refuse rather than guess
    if (unit <= lastUnit) return invalid(`units must each appear once, largest first (h, m, s, ms)`);
    lastUnit = unit;
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = PART.lastIndex;
  }
  if (consumed !== text.length) return invalid();
  if (!Number.isFinite(total) || total > MAX_DURATION_MS) return tooLong;
  return Math.round(total);
}

function safeJson(input: unknown): string {
  if (typeof input === 'number') return String(input);
  try {
    const text = JSON.stringify(input) ?? String(input);
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return String(input);
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(2)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${m}m${s}s` : `${m}m`;
}
