/**
 * How deeply YAML text nests, measured on the text before it is parsed: the
 * YAML parser recurses per level, so a document of thousands of levels (from
 * a request body) would overflow the stack inside it. Linear, no recursion,
 * and deliberately an overestimate where YAML is subtle (a bracket inside a
 * single-quoted or plain scalar counts too): only absurd documents are refused.
 */
import { jsonTextDepth } from './json-body.js';

export const MAX_YAML_DEPTH = 64;

/** the deepest block nesting (indentation levels plus compact `- - x` items) */
export function yamlBlockDepth(text: string): number {
  const indents: number[] = [];
  let max = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let i = start;
    while (i < end && text.charCodeAt(i) === 32) i++;
    if (i < end && text[i] !== '#' && text[i] !== '\r') {
      const indent = i - start;
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
      let compact = 0;
      // "- - - x": each dash opens a sequence inside the previous one
      while (text[i] === '-' && (text[i + 1] === ' ' || i + 1 === end)) {
        compact++;
        i += 2;
        while (i < end && text.charCodeAt(i) === 32) i++;
      }
      const depth = indents.length + Math.max(0, compact - 1);
      if (depth > max) max = depth;
    }
    start = end + 1;
  }
  return max;
}

/** block depth plus flow (`[` / `{`) depth: an upper bound on the parser's recursion */
export function yamlTextDepth(text: string): number {
  return yamlBlockDepth(text) + jsonTextDepth(text);
}
