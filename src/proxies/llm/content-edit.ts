/**
 * The quiet content faults of DESIGN §13.1 as pure functions on an answer's
 * text and tool calls, whatever the wire: the OpenAI and Anthropic answers,
 * streamed or not, are read into this view and written back by content-faults.ts.
 * All randomness comes from the Random given, so a seed changes the same bytes.
 */
import type { Random } from '../../shared/random.js';
import type { LlmErrorType } from '../../protocol/llm-faults.js';

export type ContentFault = Extract<
  LlmErrorType,
  'truncate' | 'empty' | 'refusal' | 'malformed_tool_args' | 'wrong_value'
>;

export interface ToolView {
  name: string;
  /** the arguments as JSON text (OpenAI's `function.arguments`; Anthropic's `input`, stringified) */
  args: string;
}

/** one answer (an OpenAI choice, an Anthropic message) */
export interface AnswerView {
  text: string;
  tools: ToolView[];
}

export interface AnswerEdit {
  text: string;
  /** new arguments per tool, by position; tools beyond the list's length are dropped */
  tools: ToolView[];
  /** set for `refusal` */
  refusal?: string;
  /** why the finish changed: the answer was cut (`length` / `max_tokens`), refused, or ends normally */
  finish: 'cut' | 'refused' | 'normal' | 'unchanged';
}

export interface EditContext {
  keep: number;
  random: Random;
  /** Anthropic: the request's tools, to find a field listed as required */
  requiredFields?: (toolName: string) => readonly string[];
  /** OpenAI makes malformed JSON; Anthropic, whose `input` is always an object, drops a required field */
  api: 'openai' | 'anthropic';
  /** wrong_value adds each number it wrote here: the markers it leaves (DESIGN §13.3) */
  changed?: string[];
}

/** OpenAI's own wording of a refusal in `message.refusal` */
export const REFUSAL_TEXT = "I'm sorry, but I can't assist with that request.";

/** The edit a fault makes to one answer, or undefined when it cannot act on it (not applicable). */
export function editAnswer(fault: ContentFault, view: AnswerView, ctx: EditContext): AnswerEdit | undefined {
  switch (fault) {
    case 'truncate': {
      if (view.text.length > 0) return { text: prefix(view.text, ctx.keep), tools: [], finish: 'cut' };
      const last = view.tools.at(-1);
      if (!last) return undefined;
      // a cut inside a tool call: as a real max_tokens cut, the arguments end mid-JSON
      const tools = view.tools.map((t) => ({ ...t }));
      tools[tools.length - 1] = { ...last, args: prefix(last.args, ctx.keep) };
      return { text: '', tools, finish: 'cut' };
    }
    case 'empty':
      return { text: '', tools: [], finish: 'normal' };
    case 'refusal':
      return { text: '', tools: [], refusal: REFUSAL_TEXT, finish: 'refused' };
    case 'malformed_tool_args':
      return malformed(view, ctx);
    case 'wrong_value': {
      const text = changeNumbers(view.text, ctx.random, ctx.changed);
      const tools = view.tools.map((t) => ({ ...t, args: changeJsonNumbers(t.args, ctx.random, ctx.changed) }));
      const isChanged = text !== view.text || tools.some((t, i) => t.args !== view.tools[i]!.args);
      return isChanged ? { text, tools, finish: 'unchanged' } : undefined;
    }
  }
}

function malformed(view: AnswerView, ctx: EditContext): AnswerEdit | undefined {
  if (view.tools.length === 0) return undefined;
  const tools = view.tools.map((t) => ({ ...t }));
  if (ctx.api === 'openai') {
    const i = ctx.random.int(0, tools.length - 1);
    const args = tools[i]!.args.trim();
    // a strict prefix of a JSON object is never valid JSON
    const cut =
      args.length <= 1
        ? 0
        : Math.max(1, Math.min(args.length - 1, Math.floor(args.length * (0.3 + 0.5 * ctx.random.next()))));
    tools[i]!.args = args.length <= 1 ? '{' : args.slice(0, cut);
    return { text: view.text, tools, finish: 'unchanged' };
  }
  // Anthropic: the input stays an object, but a field the tool lists as required is missing
  const candidates: Array<{ tool: number; field: string }> = [];
  tools.forEach((t, i) => {
    const input = parseObject(t.args);
    if (!input) return;
    for (const field of ctx.requiredFields?.(t.name) ?? []) if (field in input) candidates.push({ tool: i, field });
  });
  if (candidates.length === 0) return undefined;
  const pick = candidates[ctx.random.int(0, candidates.length - 1)]!;
  const input = parseObject(tools[pick.tool]!.args)!;
  delete input[pick.field];
  tools[pick.tool]!.args = JSON.stringify(input);
  return { text: view.text, tools, finish: 'unchanged' };
}

/** the first `keep` of the text's characters (code points: a cut never splits a surrogate pair) */
function prefix(text: string, keep: number): string {
  const chars = Array.from(text);
  return chars.slice(0, Math.floor(chars.length * keep)).join('');
}

const NUMBER = /-?\d+(?:\.\d+)?/g;

/** every number in free text changed plausibly: by 10–50 %, at least by one unit of its last digit */
export function changeNumbers(text: string, random: Random, out?: string[]): string {
  return text.replace(NUMBER, (m) => changeNumberText(m, random, out));
}

function changeNumberText(m: string, random: Random, out?: string[]): string {
  const decimals = m.includes('.') ? m.length - m.indexOf('.') - 1 : 0;
  const unit = 10 ** -decimals;
  const n = Number(m);
  const step = Math.max(unit, Math.abs(n) * (0.1 + 0.4 * random.next()));
  const sign = random.next() < 0.5 && n - step >= 0 ? -1 : 1;
  const changed = (n + sign * step).toFixed(decimals);
  out?.push(changed);
  return changed;
}

/** numbers in JSON arguments changed as values (the JSON stays valid); not JSON: as free text */
function changeJsonNumbers(args: string, random: Random, out?: string[]): string {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    return changeNumbers(args, random, out);
  }
  const walk = (v: unknown, key?: string): unknown => {
    if (typeof v === 'number') {
      const changed = Number(changeNumberText(String(v), random));
      // the marker is the field as JSON writes it, `"days":4`: a bare 4 would be found everywhere
      out?.push(key === undefined ? String(changed) : `${JSON.stringify(key)}:${changed}`);
      return changed;
    }
    if (Array.isArray(v)) return v.map((x) => walk(x));
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x, k)]));
    if (typeof v === 'string') return changeNumbers(v, random, out);
    return v;
  };
  return JSON.stringify(walk(value));
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
