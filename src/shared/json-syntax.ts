/**
 * The first JSON syntax error in a text, at its line:column. A `.json` file is
 * read by the YAML loader (for its positions), but YAML accepts much that JSON
 * does not (`{"a": }`, trailing commas, comments), and its wording would call a
 * JSON mistake a YAML one. `JSON.parse` gives no position for some errors, so
 * this small scanner finds it.
 */

export interface JsonSyntaxError {
  message: string;
  line: number;
  column: number;
}

/** undefined when the text is valid JSON */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // fall through to the scanner, which says where
  }
  const found = scan(text);
  const { line, column } = lineColumn(text, found.at);
  return { message: `JSON syntax error: ${found.message}`, line, column };
}

class Stop {
  constructor(
    readonly at: number,
    readonly message: string,
  ) {}
}

function scan(text: string): { at: number; message: string } {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const describe = () => (i >= text.length ? 'the end of the file' : `'${text[i]}'`);
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}, found ${describe()}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Stop(i, 'invalid escape in a string');
      } else if (c.charCodeAt(0) < 0x20) throw new Stop(i, 'a control character (e.g. a line break) inside a string');
      else i++;
    }
    throw new Stop(i, 'a string is not closed');
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a property name in double quotes');
        string();
        ws();
        if (text[i] !== ':') fail("':'");
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === '}') fail('a property after the comma');
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail("',' or '}'");
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          ws();
          if (text[i] === ']') fail('a value after the comma');
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail("',' or ']'");
      }
    }
    if (c === '"') return string();
    const number = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (number && number[0] !== '-') {
      i += number[0].length;
      return;
    }
    for (const word of ['true', 'false', 'null'])
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    fail('a value');
  };
  try {
    value();
    ws();
    if (i < text.length) fail('the end of the file');
  } catch (err) {
    if (err instanceof Stop) return { at: err.at, message: err.message };
    throw err;
  }
  // JSON.parse refused what the scanner accepts (should not happen): say so without a guess
  return { at: 0, message: 'the text is not valid JSON' };
}

function lineColumn(text: string, at: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}
