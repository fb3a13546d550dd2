/**
 * Durations are written with units (`250ms`, `2s`, `1m30s`, `1h`) or as integer
 * milliseconds. Anything else is rejected with a message that says what is wrong.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;

export function parseDuration(input: unknown): number {
  const ms = tryParseDuration(input);
  if (ms === undefined) {
    throw new TypeError(
      `invalid duration ${JSON.stringify(input)}: use a number of milliseconds or a string such as "250ms", "2s", "1m30s"`,
    );
  }
  return ms;
}

/** the duration in milliseconds, or undefined when the input is not a valid non-negative duration */
export function tryParseDuration(input: unknown): number | undefined {
  if (typeof input === 'number') {
    return Number.isFinite(input) && input >= 0 && Number.isInteger(input) ? input : undefined;
  }
  if (typeof input !== 'string') return undefined;
  const text = input.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = PART.exec(text)) !== null) {
    total += Number(match[1]) * UNIT_MS[match[2]!]!;
    consumed = PART.lastIndex;
  }
  if (consumed !== text.length) return undefined;
  return Math.round(total);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(2)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s ? `${m}m${s}s` : `${m}m`;
}
