/**
 * Which model a request asked for, seen as its body streams past untouched:
 * the recovery probe asks for what the agents' own traffic used (an upstream
 * with a model allow-list refuses any other). A tiny JSON scanner finds the
 * top-level `"model"` string wherever it sits (SDKs put `messages` first),
 * holding only that string, never the body. It stops at the model or after
 * `maxBytes`, so a large body costs at most that much scanning.
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
}

export function createModelSniffer(maxBytes = 1024 * 1024): ModelSniffer {
  let depth = 0;
  let inString = false;
  let isEscaped = false;
  let isTooLong = false;
  let bytes: number[] = [];
  let isValue = false; // after a top-level key's colon
  let lastKey: string | undefined;
  let scanned = 0;
  let model: string | undefined;
  let isDone = false;

  const endString = () => {
    const text = isTooLong ? undefined : Buffer.from(bytes).toString('utf8');
    if (!isValue) lastKey = text;
    else if (lastKey === 'model' && text !== undefined) {
      model = text;
      isDone = true;
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
            continue;
          } else if (b === QUOTE) {
            inString = false;
            if (depth === 1) endString();
            continue;
          }
          if (depth === 1 && !isTooLong) {
            if (bytes.length >= MAX_STRING) isTooLong = true;
            else bytes.push(b);
          }
          continue;
        }
        if (b === QUOTE) {
          inString = true;
          bytes = [];
          isTooLong = false;
        } else if (b === 0x7b || b === 0x5b) depth++;
        else if (b === 0x7d || b === 0x5d) depth--;
        else if (depth === 1 && b === COLON) isValue = true;
        else if (depth === 1 && b === COMMA) isValue = false;
      }
      scanned += end;
      if (scanned >= maxBytes) isDone = true;
    },
    get model() {
      return model;
    },
    get isDone() {
      return isDone;
    },
  };
}
