/**
 * YAML text → plain value, with every later validation problem mapped back to
 * its line:column. The one YAML loader for workflow files, client config,
 * scenarios and strategies, so all give the same quality of error. Size,
 * nesting depth and alias expansion are capped before anything is expanded,
 * and every message is worded for a person editing one file (never the
 * library's "Maximum call stack size exceeded" or "use parseAllDocuments()").
 */
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  Scalar,
  type Document,
  type YAMLError,
} from 'yaml';
import { type Environment, interpolateEnv } from './env-interpolation.js';
import { findJsonSyntaxError } from './json-syntax.js';
import { flowDepthOverflow, guardDocument, MAX_YAML_DEPTH } from './yaml-guard.js';

export interface SourceProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * The raw outcome, for callers that word their own errors (scenarios keep
 * their CLI wording). Syntax problems carry path ''.
 */
export type YamlDocument =
  | {
      ok: true;
      value: unknown;
      /** line:column of the deepest node that exists along `segments`; `atKey` points at the last key rather than its value */
      positionOf(segments: ReadonlyArray<string | number>, atKey?: boolean): SourcePosition | undefined;
    }
  | { ok: false; reason: 'too_large'; bytes: number; limit: number }
  | { ok: false; reason: 'syntax'; errors: SourceProblem[] }
  | { ok: false; reason: 'expand'; detail: string };

export interface YamlSource {
  /** set when the text parsed; undefined otherwise */
  value?: unknown;
  /** syntax, duplicate-key, size and alias problems */
  errors: SourceProblem[];
  /** adds line:column to a problem found later by a validator */
  locate<P extends SourceProblem>(problem: P): P;
}

export const MAX_YAML_BYTES = 1024 * 1024;
/**
 * caps alias expansion so a "billion laughs" document cannot blow up memory:
 * the number of nodes aliases may add, not the number of aliases (a harmless
 * file may reuse one anchor many times)
 */
export { MAX_YAML_DEPTH };

export interface ReadOptions {
  /** the text is a `.json` file: JSON syntax errors are told as such, never as YAML ones */
  json?: boolean;
  /**
   * replace `${NAME}` references in string values from this environment (env-interpolation.ts);
   * a plain (unquoted) value that becomes a number is a number, as if it had been written so
   */
  env?: Environment;
}

/** a file named `*.json` is read as JSON (see ReadOptions.json) */
export function isJsonPath(path: string | undefined): boolean {
  return path !== undefined && /\.json$/i.test(path);
}

export function readYamlDocument(text: string, maxBytes = MAX_YAML_BYTES, options: ReadOptions = {}): YamlDocument {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) return { ok: false, reason: 'too_large', bytes, limit: maxBytes };
  // old Mac line endings (CR alone) are line breaks too; YAML itself only knows LF and CRLF
  const normalized = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  const lineCounter = new LineCounter();
  const tooDeep = flowDepthOverflow(normalized);
  if (tooDeep !== undefined) {
    lineCounter.addNewLine(0);
    for (let i = normalized.indexOf('\n'); i !== -1 && i < tooDeep; i = normalized.indexOf('\n', i + 1))
      lineCounter.addNewLine(i + 1);
    const { line, col } = lineCounter.linePos(tooDeep);
    return {
      ok: false,
      reason: 'syntax',
      errors: [{ path: '', message: `nesting is deeper than ${MAX_YAML_DEPTH} levels`, line, column: col }],
    };
  }
  if (options.json) {
    const bad = findJsonSyntaxError(normalized);
    if (bad) return { ok: false, reason: 'syntax', errors: [{ path: '', ...bad }] };
  }
  const doc = parseDocument(normalized, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) return { ok: false, reason: 'syntax', errors: syntaxProblems(doc.errors) };
  const guarded = guardDocument(doc);
  if (guarded) {
    const pos = guarded.offset === undefined ? undefined : lineCounter.linePos(guarded.offset);
    return {
      ok: false,
      reason: 'syntax',
      errors: [{ path: '', message: guarded.message, ...(pos ? { line: pos.line, column: pos.col } : {}) }],
    };
  }
  if (options.env) {
    const problems = interpolateDocument(doc, lineCounter, options.env);
    if (problems.length > 0) return { ok: false, reason: 'syntax', errors: problems };
  }
  let value: unknown;
  try {
    // guardDocument has bounded the expansion; the library's own count refuses harmless reuse
    value = doc.toJS({ maxAliasCount: -1 });
  } catch (err) {
    return { ok: false, reason: 'expand', detail: err instanceof Error ? err.message : String(err) };
  }
  return { ok: true, value, positionOf: (segments, atKey = false) => positionOf(doc, lineCounter, segments, atKey) };
}

/** every `${…}` of every value scalar (keys stay as written), in place; one problem per bad reference */
function interpolateDocument(doc: Document, lc: LineCounter, env: Environment): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const walk = (node: unknown, segments: Array<string | number>): void => {
    if (isMap(node)) {
      for (const pair of node.items) if (isScalar(pair.key)) walk(pair.value, [...segments, String(pair.key.value)]);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...segments, i]));
    } else if (isScalar(node) && typeof node.value === 'string') {
      const result = interpolateEnv(node.value, env);
      if (!result.ok) {
        const offset = rangeStart(node);
        const pos = offset === undefined ? undefined : lc.linePos(offset);
        problems.push({
          path: formatSegments(segments),
          message: result.message,
          ...(pos ? { line: pos.line, column: pos.col } : {}),
        });
      } else if (result.changed) {
        const plainNumber = node.type === Scalar.PLAIN && /^-?\d+(\.\d+)?$/.test(result.value);
        node.value = plainNumber ? Number(result.value) : result.value;
      }
    }
  };
  walk(doc.contents, []);
  return problems;
}

/** ['agents', 0, 'listen'] → `agents[0].listen`: the one form of a path in problems */
export function formatSegments(segments: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const s of segments) out += typeof s === 'number' ? `[${s}]` : out === '' ? String(s) : `.${String(s)}`;
  return out;
}

function syntaxProblems(errors: readonly YAMLError[]): SourceProblem[] {
  const out: SourceProblem[] = [];
  for (const e of errors) {
    const at = e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {};
    let message: string;
    if (e.code === 'MULTIPLE_DOCS')
      message = 'a second YAML document starts here ("---"): a file holds one document; split it into two files';
    else if (/Maximum call stack/i.test(e.message)) message = `nesting is deeper than ${MAX_YAML_DEPTH} levels`;
    // the library ends its first line with ':' before a code excerpt we do not show, and repeats the position
    else
      message = e.message
        .split('\n')[0]!
        .replace(/:\s*$/, '')
        .replace(/ at line \d+, column \d+$/, '');
    // one overflow is reported once, not once per level the parser unwound
    if (!out.some((p) => p.message === message && message.startsWith('nesting')))
      out.push({ path: '', message, ...at });
  }
  return out;
}

/** Parses with the loader's own wording for size, syntax and alias problems. */
export function parseYamlSource(text: string, maxBytes = MAX_YAML_BYTES, options: ReadOptions = {}): YamlSource {
  const none: YamlSource = { errors: [], locate: (p) => p };
  const doc = readYamlDocument(text, maxBytes, options);
  if (doc.ok) {
    const locate = <P extends SourceProblem>(p: P): P => {
      // unknown keys point at the key itself, everything else at the value
      const pos = doc.positionOf(pathSegments(p.path), p.message.startsWith('unknown key'));
      return pos ? { ...p, line: pos.line, column: pos.column } : p;
    };
    return { value: doc.value, errors: [], locate };
  }
  switch (doc.reason) {
    case 'too_large':
      return { ...none, errors: [{ path: '', message: `text is larger than the ${doc.limit}-byte limit` }] };
    case 'syntax':
      return { ...none, errors: doc.errors };
    case 'expand':
      return { ...none, errors: [{ path: '', message: `cannot expand the document: ${doc.detail}` }] };
  }
}

/** `steps[2].depends_on[0]` → ['steps', 2, 'depends_on', 0] */
export function pathSegments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** One line per problem: `  file:line:col path: message` (the file and position when known; '' path is `(root)`). */
export function formatSourceProblems(problems: readonly SourceProblem[], source?: string): string {
  return problems
    .map((p) => {
      const where = [source, p.line !== undefined ? `${p.line}:${p.column ?? 1}` : undefined].filter(Boolean).join(':');
      return `  ${where ? `${where} ` : ''}${p.path || '(root)'}: ${p.message}`;
    })
    .join('\n');
}

function positionOf(
  doc: Document,
  lc: LineCounter,
  segments: ReadonlyArray<string | number>,
  atKey: boolean,
): SourcePosition | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      const last = i === segments.length - 1;
      offset =
        last && atKey ? (rangeStart(pair.key) ?? offset) : (rangeStart(pair.value) ?? rangeStart(pair.key) ?? offset);
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
      node = node.items[seg];
      offset = rangeStart(node) ?? offset;
    } else break;
  }
  if (offset === undefined) return undefined;
  const { line, col } = lc.linePos(offset);
  return { line, column: col };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : undefined;
}
