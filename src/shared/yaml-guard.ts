/**
 * Checks a parsed YAML document before it is turned into values, without
 * recursion (a deep document must not overflow the stack of the very code
 * that guards against it): nesting depth, aliases that name no earlier
 * anchor, and how much the aliases would expand. The cap is on expanded
 * nodes, not on the number of aliases, so a file that reuses one small
 * anchor sixty times is fine and a "billion laughs" document is not.
 */
import { isAlias, isCollection, isPair, Lexer, type Document, type Node } from 'yaml';

/** same limit as JSON bodies (DESIGN §7), so a document reads the same from a file or over HTTP */
export const MAX_YAML_DEPTH = 64;
/** nodes that aliases may add on expansion; a 1 MiB file already holds up to ~250k nodes of its own */
export const MAX_ALIAS_EXPANSION = 100_000;

export interface GuardProblem {
  message: string;
  /** source offset of the node at fault */
  offset?: number;
}

interface Frame {
  node: unknown;
  depth: number;
  parent: Frame | undefined;
  /** expanded size of this node so far (itself plus its children) */
  size: number;
  exiting: boolean;
}

export function guardDocument(
  doc: Document,
  maxDepth = MAX_YAML_DEPTH,
  maxExpansion = MAX_ALIAS_EXPANSION,
): GuardProblem | undefined {
  const anchors = new Map<string, { size: number; done: boolean }>();
  let expansion = 0;
  const root: Frame = { node: doc.contents, depth: 0, parent: undefined, size: 0, exiting: false };
  const stack: Frame[] = [root];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const node = frame.node;
    if (frame.exiting) {
      const anchor = anchorOf(node);
      if (anchor) anchors.set(anchor, { size: frame.size, done: true });
      if (frame.parent) frame.parent.size += frame.size;
      continue;
    }
    if (node === null || node === undefined) continue;
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (!target)
        return {
          message: `alias *${node.source} refers to no anchor &${node.source} before it`,
          offset: offsetOf(node),
        };
      if (!target.done)
        return { message: `alias *${node.source} refers to a node that contains it`, offset: offsetOf(node) };
      expansion += target.size;
      if (expansion > maxExpansion) {
        return {
          message: `aliases expand to more than ${maxExpansion} nodes: refused as a resource-exhaustion attack`,
          offset: offsetOf(node),
        };
      }
      if (frame.parent) frame.parent.size += target.size;
      continue;
    }
    if (isPair(node)) {
      // a pair is not a level of its own: its key and value sit at the map's depth + 1
      frame.size = 0;
    } else {
      frame.size = 1;
      if (isCollection(node) && frame.depth >= maxDepth)
        return { message: `nesting is deeper than ${maxDepth} levels`, offset: offsetOf(node) };
    }
    const anchor = anchorOf(node);
    if (anchor) anchors.set(anchor, { size: 0, done: false });
    frame.exiting = true;
    stack.push(frame);
    const children = isCollection(node) ? (node.items as unknown[]) : isPair(node) ? [node.key, node.value] : [];
    const childDepth = isPair(node) ? frame.depth : frame.depth + 1;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i], depth: childDepth, parent: frame, size: 0, exiting: false });
  }
  return undefined;
}

/** the lexer's control tokens, which stand for no source text */
const CONTROL_TOKENS = new Set(['\x02', '\x18', '\x1f']);

/**
 * Flow nesting (`[[[[…`) deeper than the limit, found from the lexer's tokens
 * before the parser runs: the library's composer recurses per level, and a
 * few hundred thousand levels exhaust its memory rather than just its stack.
 * Returns the source offset of the first bracket past the limit.
 */
export function flowDepthOverflow(text: string, maxDepth = MAX_YAML_DEPTH): number | undefined {
  // a text with fewer brackets than the limit cannot nest deeper: skip the lexer
  let brackets = 0;
  for (let i = 0; i < text.length && brackets <= maxDepth; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) brackets++;
  }
  if (brackets <= maxDepth) return undefined;
  let depth = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > maxDepth) return offset;
    } else if (token === ']' || token === '}') depth--;
    if (!CONTROL_TOKENS.has(token)) offset += token.length;
  }
  return undefined;
}

function anchorOf(node: unknown): string | undefined {
  return (node as { anchor?: string } | null)?.anchor || undefined;
}

function offsetOf(node: unknown): number | undefined {
  return (node as Node | null)?.range?.[0];
}
