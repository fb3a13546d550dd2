/**
 * YAML text → plain value, with every later validation problem mapped back to
 * its line:column. The one YAML loader for workflow files, client config,
 * scenarios and strategies, so all give the same quality of error. Size and
 * alias expansion are capped before anything is expanded.
 */
import { MAX_YAML_DEPTH, yamlTextDepth } from './yaml-depth.js';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

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
/** caps alias expansion so a "billion laughs" document cannot blow up memory */
export const MAX_ALIAS_COUNT = 50;

export function readYamlDocument(text: string, maxBytes = MAX_YAML_BYTES): YamlDocument {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) return { ok: false, reason: 'too_large', bytes, limit: maxBytes };
  const depth = yamlTextDepth(text);
  if (depth > MAX_YAML_DEPTH) {
    return { ok: false, reason: 'syntax', errors: [{ path: '', message: `the document nests ${depth} levels deep (at most ${MAX_YAML_DEPTH})` }] };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      reason: 'syntax',
      errors: doc.errors.map((e) => ({
        path: '',
        // the library ends its first line with ':' before a code excerpt we do not show
        message: e.message.split('\n')[0]!.replace(/:\s*$/, ''),
        ...(e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      })),
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    return { ok: false, reason: 'expand', detail: err instanceof Error ? err.message : String(err) };
  }
  return { ok: true, value, positionOf: (segments, atKey = false) => positionOf(doc, lineCounter, segments, atKey) };
}

/** Parses with the loader's own wording for size, syntax and alias problems. */
export function parseYamlSource(text: string, maxBytes = MAX_YAML_BYTES): YamlSource {
  const none: YamlSource = { errors: [], locate: (p) => p };
  const doc = readYamlDocument(text, maxBytes);
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

function positionOf(doc: Document, lc: LineCounter, segments: ReadonlyArray<string | number>, atKey: boolean): SourcePosition | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      const last = i === segments.length - 1;
      offset = last && atKey ? (rangeStart(pair.key) ?? offset) : (rangeStart(pair.value) ?? rangeStart(pair.key) ?? offset);
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
