/**
 * YAML text → plain value, with every later validation problem mapped back to
 * its line:column. Shared by workflow files and client config files so both
 * give the same quality of error. Size and alias expansion are capped.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

export interface SourceProblem {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

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

export function parseYamlSource(text: string, maxBytes = MAX_YAML_BYTES): YamlSource {
  const none: YamlSource = { errors: [], locate: (p) => p };
  if (Buffer.byteLength(text, 'utf8') > maxBytes) {
    return { ...none, errors: [{ path: '', message: `text is larger than the ${maxBytes}-byte limit` }] };
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const locate = <P extends SourceProblem>(p: P) => locateProblem(p, doc, lineCounter);
  if (doc.errors.length > 0) {
    return {
      ...none,
      errors: doc.errors.map((e) => ({
        path: '',
        message: e.message.split('\n')[0],
        ...(e.linePos ? { line: e.linePos[0].line, column: e.linePos[0].col } : {}),
      })),
    };
  }
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), errors: [], locate };
  } catch (err) {
    return { ...none, errors: [{ path: '', message: `cannot expand the document: ${err instanceof Error ? err.message : String(err)}` }] };
  }
}

/** `steps[2].depends_on[0]` → ['steps', 2, 'depends_on', 0] */
export function pathSegments(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  return out;
}

/** line:column of the deepest node that exists along the problem's path */
function locateProblem<P extends SourceProblem>(problem: P, doc: Document, lc: LineCounter): P {
  let node: unknown = doc.contents;
  let offset: number | undefined = rangeStart(node);
  for (const seg of pathSegments(problem.path)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
      if (!pair) break;
      // unknown keys point at the key itself, everything else at the value
      offset = problem.message.startsWith('unknown key') ? (rangeStart(pair.key) ?? offset) : (rangeStart(pair.value) ?? rangeStart(pair.key) ?? offset);
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && node.items[seg] !== undefined) {
      node = node.items[seg];
      offset = rangeStart(node) ?? offset;
    } else break;
  }
  if (offset === undefined) return problem;
  const { line, col } = lc.linePos(offset);
  return { ...problem, line, column: col };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? range[0] : undefined;
}
