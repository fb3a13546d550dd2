/**
 * A small, safe arithmetic evaluator for the `compute` tool: numbers, + - * / %
 * ^ (right-associative power), unary minus and parentheses. No eval.
 * The parser recurses per nesting level, so nesting and length are bounded:
 * an expression from a request can neither overflow the stack nor run long.
 */
import { UsageError } from '../../shared/errors.js';

export const MAX_EXPRESSION_LENGTH = 10_000;
export const MAX_EXPRESSION_DEPTH = 100;

export function evaluateExpression(text: string): number {
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new UsageError(`compute: the expression is ${text.length} characters (at most ${MAX_EXPRESSION_LENGTH})`, {
      code: 'invalid_expression',
    });
  }
  let pos = 0;
  let depth = 0;
  const fail = (what: string): never => {
    throw new UsageError(`compute: ${what} at position ${pos} in ${JSON.stringify(text)}`, {
      code: 'invalid_expression',
    });
  };
  const skip = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const peek = () => (skip(), text[pos]);

  const primary = (): number => {
    const c = peek();
    if (c === '(') {
      pos++;
      const v = sum();
      if (peek() !== ')') fail('expected ")"');
      pos++;
      return v;
    }
    if (c === '-') return pos++, -unary();
    if (c === '+') return pos++, unary();
    const match = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(pos));
    if (!match) return fail(c === undefined ? 'unexpected end' : `unexpected ${JSON.stringify(c)}`);
    pos += match[0].length;
    return Number(match[0]);
  };
  // every recursion passes through here: parentheses, signs and powers
  const unary = (): number => {
    if (++depth > MAX_EXPRESSION_DEPTH) fail(`nested deeper than ${MAX_EXPRESSION_DEPTH} levels`);
    const base = primary();
    let value = base;
    if (peek() === '^') {
      pos++;
      value = base ** unary();
    }
    depth--;
    return value;
  };
  const product = (): number => {
    let v = unary();
    for (let c = peek(); c === '*' || c === '/' || c === '%'; c = peek()) {
      pos++;
      const rhs = unary();
      if (c !== '*' && rhs === 0) fail('division by zero');
      v = c === '*' ? v * rhs : c === '/' ? v / rhs : v % rhs;
    }
    return v;
  };
  const sum = (): number => {
    let v = product();
    for (let c = peek(); c === '+' || c === '-'; c = peek()) {
      pos++;
      const rhs = product();
      v = c === '+' ? v + rhs : v - rhs;
    }
    return v;
  };

  const value = sum();
  if (peek() !== undefined) fail(`unexpected ${JSON.stringify(text[pos])}`);
  if (!Number.isFinite(value)) fail('result is not a finite number');
  return value;
}
