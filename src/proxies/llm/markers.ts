/**
 * The LLM proxy's side of DESIGN §13.3: each request an agent sends is read
 * for the markers quiet faults planted earlier. Anywhere in the request, a
 * marker has entered the agent's context; inside a tool call the agent made
 * (an assistant turn's tool call in the history it sends back), it drove an
 * action.
 */
import type { MarkerBook } from '../../protocol/markers.js';

/** scans one request body (read whole); a body that is not JSON is scanned as context only */
export function traceRequest(book: MarkerBook, chunks: readonly Buffer[]): void {
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    book.scan(text, 'entered_context');
    return;
  }
  // tool-call arguments are JSON inside a JSON string: read unescaped, where `"days":4` is found as written
  const calls = toolCallsOf(body).join('\n');
  book.scan(calls === '' ? text : `${text}\n${calls}`, 'entered_context');
  if (calls !== '') book.scan(calls, 'drove_action');
}

/**
 * The arguments of the tool calls in the history: OpenAI chat (`tool_calls[].function.arguments`),
 * OpenAI responses (`input[]` items of type `function_call`), Anthropic (`tool_use` blocks' `input`).
 */
function toolCallsOf(body: unknown): string[] {
  if (!isObject(body)) return [];
  const out: string[] = [];
  const turns = [
    ...(Array.isArray(body.messages) ? body.messages : []),
    ...(Array.isArray(body.input) ? body.input : []),
  ];
  for (const turn of turns) {
    if (!isObject(turn)) continue;
    if (turn.type === 'function_call' && typeof turn.arguments === 'string') out.push(turn.arguments);
    if (Array.isArray(turn.tool_calls))
      for (const call of turn.tool_calls)
        if (isObject(call) && isObject(call.function) && typeof call.function.arguments === 'string')
          out.push(call.function.arguments);
    if (Array.isArray(turn.content))
      for (const block of turn.content)
        if (isObject(block) && block.type === 'tool_use') out.push(JSON.stringify(block.input ?? null));
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
