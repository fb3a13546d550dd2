/**
 * Which model a request asked for, seen as its body streams past untouched:
 * the recovery probe asks for what the agents' own traffic used (an upstream
 * with a model allow-list refuses any other), and a fault that matches on
 * `model` decides from it without reading the whole body. A tiny JSON
 * scanner finds the first top-level `"model"` string wherever it sits (SDKs
 * put `messages` first), holding only that string, never the body. It stops
 * at the model or after `maxBytes`, so a large body costs at most that much
 * scanning. A top-level string with escapes is decoded as JSON.parse would.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
/** a longer string at the top level is no model name: it is not kept */
const MAX_STRING = 256;

export interface ModelSniffer {
  push(chunk: Buffer): void;
  /** the top-level `model`, once seen */
  readonly model: string | undefined;
  /** the model was found or the scan gave up: push is a no-op from here */
  readonly isDone: boolean;
  /**
   * the scan cannot vouch for its answer: it gave up at `maxBytes`, or the model's value was too
   * long to keep; a caller that needs the exact model parses the whole body instead
   */
  readonly isUnsure: boolean;
}

export function createModelSniffer(maxBytes = 1024 * 1024): ModelSniffer {
  let depth = 0;
  let inString = false;
  let isEscaped = false;
  let hasEscape = false;
  let isTooLong = false;
  let bytes: number[] = [];
  let isValue = false; // after a top-level key's colon
  let lastKey: string | undefined;
  let scanned = 0;
  let model: string | undefined;
  let isDone = false;
  let isUnsure = false;

  const endString = () => {
    const text = isTooLong ? undefined : decode(bytes, hasEscape);
    if (!isValue) lastKey = text;
    else if (lastKey === 'model') {
      if (text === undefined) isUnsure = isDone = true;
      else {
        model = text;
        isDone = true;
      }
    }
  };

  return {
    push(chunk) {
      if (isDone) return;
      const end = Math.min(chunk.length, maxBytes - scanned);
      for (let i = 0; i < end && !isDone; i++) {
        const b = chunk[i]!;
        if (inString) {
          if (isEscaped) isEscaped = false;
          else if (b === BACKSLASH) {
            isEscaped = true;
            hasEscape = true;
          } else if (b === QUOTE) {
            inString = false;
            if (depth === 1) endString();
            continue;
          }
          // kept as written, escapes included: decode() reads them as JSON does
          if (depth === 1 && !isTooLong) {
            if (bytes.length >= MAX_STRING) isTooLong = true;
            else bytes.push(b);
          }
          continue;
        }
        if (b === QUOTE) {
          inString = true;
          bytes = [];
          hasEscape = false;
          isTooLong = false;
        } else if (b === 0x7b || b === 0x5b) depth++;
        else if (b === 0x7d || b === 0x5d) depth--;
        else if (depth === 1 && b === COLON) isValue = true;
        else if (depth === 1 && b === COMMA) isValue = false;
      }
      scanned += end;
      if (scanned >= maxBytes && !isDone) isUnsure = isDone = true;
    },
    get model() {
      return model;
    },
    get isDone() {
      return isDone;
    },
    get isUnsure() {
      return isUnsure;
    },
  };
}

/** a JSON string's bytes as written (between the quotes); undefined when its escapes are not valid JSON */
function decode(bytes: number[], hasEscape: boolean): string | undefined {
  const raw = Buffer.from(bytes).toString('utf8');
  if (!hasEscape) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}
