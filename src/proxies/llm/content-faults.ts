/**
 * Content faults on the wire (DESIGN §13.1): an upstream answer, read whole,
 * rewritten the way the fault says, in the provider's own shape. A JSON answer
 * is edited in place; a streamed one keeps its events and their order, with
 * the text and tool arguments re-spread over the same deltas (OpenAI
 * `chat.completion.chunk`s; Anthropic `content_block_*` events), emptied
 * deltas dropped, removed blocks renumbered, and the finish written where the
 * provider writes it (`finish_reason`, `message_delta.stop_reason`), so a
 * stream cut by `truncate` still ends normally.
 */
import { editAnswer, type AnswerView, type ContentFault, type EditContext } from './content-edit.js';
import type { LlmApi } from './wire-errors.js';

// biome-ignore lint/suspicious/noExplicitAny: provider JSON, walked with a runtime check at each field it reads
type Json = Record<string, any>;

/** The rewritten body, or undefined when the fault could not act on this answer (no tool call, no number…). */
export function rewriteAnswer(
  api: LlmApi,
  fault: ContentFault,
  body: string,
  isStream: boolean,
  ctx: EditContext,
): string | undefined {
  if (isStream)
    return api === 'openai' ? rewriteOpenaiStream(body, fault, ctx) : rewriteAnthropicStream(body, fault, ctx);
  let json: Json;
  try {
    json = JSON.parse(body) as Json;
  } catch {
    return undefined;
  }
  const isChanged = api === 'openai' ? rewriteOpenaiJson(json, fault, ctx) : rewriteAnthropicJson(json, fault, ctx);
  return isChanged ? JSON.stringify(json) : undefined;
}

const OPENAI_FINISH = { cut: 'length', refused: 'stop', normal: 'stop' } as const;
const ANTHROPIC_STOP = { cut: 'max_tokens', refused: 'refusal', normal: 'end_turn' } as const;

function rewriteOpenaiJson(json: Json, fault: ContentFault, ctx: EditContext): boolean {
  if (!Array.isArray(json.choices)) return false;
  let isChanged = false;
  for (const choice of json.choices as Json[]) {
    const msg = choice.message as Json | undefined;
    if (!msg) continue;
    const calls: Json[] = Array.isArray(msg.tool_calls) ? msg.tool_calls : [];
    const view: AnswerView = {
      text: typeof msg.content === 'string' ? msg.content : '',
      tools: calls.map((c) => ({ name: String(c.function?.name ?? ''), args: String(c.function?.arguments ?? '') })),
    };
    const edit = editAnswer(fault, view, ctx);
    if (!edit) continue;
    isChanged = true;
    if (edit.refusal !== undefined) {
      msg.content = null;
      msg.refusal = edit.refusal;
    } else msg.content = msg.content === null && edit.text === '' && fault !== 'empty' ? null : edit.text;
    if (edit.tools.length === 0) delete msg.tool_calls;
    else
      msg.tool_calls = calls
        .slice(0, edit.tools.length)
        .map((c, i) => ({ ...c, function: { ...c.function, arguments: edit.tools[i]!.args } }));
    if (edit.finish !== 'unchanged') choice.finish_reason = OPENAI_FINISH[edit.finish];
  }
  return isChanged;
}

function rewriteAnthropicJson(json: Json, fault: ContentFault, ctx: EditContext): boolean {
  if (!Array.isArray(json.content)) return false;
  const blocks = json.content as Json[];
  const texts = blocks.filter((b) => b.type === 'text');
  const tools = blocks.filter((b) => b.type === 'tool_use');
  const view: AnswerView = {
    text: texts.map((b) => String(b.text ?? '')).join(''),
    tools: tools.map((b) => ({ name: String(b.name ?? ''), args: JSON.stringify(b.input ?? {}) })),
  };
  const edit = editAnswer(fault, view, ctx);
  if (!edit) return false;
  const pieces = spread(
    edit.text,
    texts.map((b) => cpLength(String(b.text ?? ''))),
  );
  texts.forEach((b, i) => (b.text = pieces[i]));
  tools.forEach((b, i) => {
    if (i < edit.tools.length) b.input = objectOr(edit.tools[i]!.args);
  });
  const kept = new Set([
    ...texts.filter((b) => b.text !== '' || edit.text !== ''),
    ...tools.slice(0, edit.tools.length),
  ]);
  json.content = blocks.filter((b) => (b.type !== 'text' && b.type !== 'tool_use') || kept.has(b));
  if (edit.finish !== 'unchanged') json.stop_reason = ANTHROPIC_STOP[edit.finish];
  return true;
}

interface SseEvent {
  raw: string;
  event?: string;
  json?: Json;
  isEdited: boolean;
  isDropped: boolean;
}

function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const raw of body.split(/\r\n\r\n|\n\n|\r\r/)) {
    if (raw.trim() === '') continue;
    const e: SseEvent = { raw, isEdited: false, isDropped: false };
    const data: string[] = [];
    for (const line of raw.split(/\r\n|\n|\r/)) {
      if (line.startsWith('event:')) e.event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    const text = data.join('\n');
    if (text !== '' && text !== '[DONE]') {
      try {
        e.json = JSON.parse(text) as Json;
      } catch {
        // not JSON: passes as it came
      }
    }
    events.push(e);
  }
  return events;
}

function writeSse(events: SseEvent[]): string {
  let out = '';
  for (const e of events) {
    if (e.isDropped) continue;
    if (!e.isEdited) out += `${e.raw}\n\n`;
    else out += `${e.event !== undefined ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.json)}\n\n`;
  }
  return out;
}

interface Fragment {
  /** where the piece of text lives */
  holder: Json;
  key: string;
  event: SseEvent;
  length: number;
}

interface OpenaiTool {
  name: string;
  args: Fragment[];
  entries: Array<{ e: SseEvent; delta: Json; entry: Json }>;
}

/** one choice of a streamed completion, gathered across its chunks */
interface OpenaiChoice {
  text: Fragment[];
  tools: Map<number, OpenaiTool>;
  finish?: { e: SseEvent; choice: Json };
  first?: { e: SseEvent; delta: Json };
}

function rewriteOpenaiStream(body: string, fault: ContentFault, ctx: EditContext): string | undefined {
  const events = parseSse(body);
  const byChoice = new Map<number, OpenaiChoice>();
  for (const e of events) {
    for (const choice of (e.json?.choices ?? []) as Json[]) {
      const c: OpenaiChoice = byChoice.get(choice.index ?? 0) ?? { text: [], tools: new Map() };
      byChoice.set(choice.index ?? 0, c);
      const delta = (choice.delta ?? {}) as Json;
      c.first ??= { e, delta };
      if (typeof delta.content === 'string')
        c.text.push({ holder: delta, key: 'content', event: e, length: cpLength(delta.content) });
      for (const entry of (delta.tool_calls ?? []) as Json[]) {
        const tool: OpenaiTool = c.tools.get(entry.index ?? 0) ?? { name: '', args: [], entries: [] };
        c.tools.set(entry.index ?? 0, tool);
        tool.entries.push({ e, delta, entry });
        if (typeof entry.function?.name === 'string') tool.name += entry.function.name;
        if (typeof entry.function?.arguments === 'string')
          tool.args.push({
            holder: entry.function,
            key: 'arguments',
            event: e,
            length: cpLength(entry.function.arguments),
          });
      }
      if (choice.finish_reason) c.finish = { e, choice };
    }
  }
  let isChanged = false;
  for (const c of byChoice.values()) {
    const toolList = [...c.tools.entries()].sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    const view: AnswerView = {
      text: joinFragments(c.text),
      tools: toolList.map((t) => ({ name: t.name, args: joinFragments(t.args) })),
    };
    const edit = editAnswer(fault, view, ctx);
    if (!edit) continue;
    isChanged = true;
    spreadInto(c.text, edit.text);
    toolList.forEach((t, i) => {
      if (i < edit.tools.length) return spreadInto(t.args, edit.tools[i]!.args);
      for (const { e, delta, entry } of t.entries) {
        delta.tool_calls = (delta.tool_calls as Json[]).filter((x) => x !== entry);
        if (delta.tool_calls.length === 0) delete delta.tool_calls;
        e.isEdited = true;
      }
    });
    if (edit.refusal !== undefined && c.first) {
      c.first.delta.refusal = edit.refusal;
      c.first.e.isEdited = true;
    }
    if (c.finish && edit.finish !== 'unchanged') {
      c.finish.choice.finish_reason = OPENAI_FINISH[edit.finish];
      c.finish.e.isEdited = true;
    }
  }
  if (!isChanged) return undefined;
  // a chunk left with nothing to say (its text moved or cut away) is not sent
  for (const e of events) {
    if (!e.isEdited || !Array.isArray(e.json?.choices) || e.json.choices.length === 0) continue;
    const isHollow = (e.json.choices as Json[]).every((ch) => {
      const d = (ch.delta ?? {}) as Json;
      return !ch.finish_reason && !d.role && !d.refusal && !d.tool_calls && !d.content;
    });
    if (isHollow) e.isDropped = true;
  }
  return writeSse(events);
}

function rewriteAnthropicStream(body: string, fault: ContentFault, ctx: EditContext): string | undefined {
  const events = parseSse(body);
  const blocks = new Map<number, { type: string; name: string; events: SseEvent[]; frags: Fragment[] }>();
  let stop: SseEvent | undefined;
  for (const e of events) {
    const j = e.json;
    if (!j) continue;
    if (j.type === 'message_delta') stop = e;
    if (typeof j.index !== 'number' || !String(j.type).startsWith('content_block_')) continue;
    let block = blocks.get(j.index);
    if (!block) {
      const cb = (j.content_block ?? {}) as Json;
      block = { type: String(cb.type ?? ''), name: String(cb.name ?? ''), events: [], frags: [] };
      blocks.set(j.index, block);
    }
    block.events.push(e);
    const d = j.delta as Json | undefined;
    if (d?.type === 'text_delta')
      block.frags.push({ holder: d, key: 'text', event: e, length: cpLength(String(d.text)) });
    if (d?.type === 'input_json_delta')
      block.frags.push({ holder: d, key: 'partial_json', event: e, length: cpLength(String(d.partial_json)) });
  }
  const ordered = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
  const texts = ordered.filter((b) => b.type === 'text');
  const tools = ordered.filter((b) => b.type === 'tool_use');
  const view: AnswerView = {
    text: texts.map((b) => joinFragments(b.frags)).join(''),
    tools: tools.map((b) => ({ name: b.name, args: joinFragments(b.frags) || '{}' })),
  };
  const edit = editAnswer(fault, view, ctx);
  if (!edit) return undefined;
  spreadInto(
    texts.flatMap((b) => b.frags),
    edit.text,
  );
  const dropBlock = (b: { events: SseEvent[] }) => b.events.forEach((e) => (e.isDropped = true));
  if (edit.text === '') texts.forEach(dropBlock);
  tools.forEach((b, i) => (i < edit.tools.length ? spreadInto(b.frags, edit.tools[i]!.args) : dropBlock(b)));
  // the SDKs keep blocks by index: what is left is numbered from 0 again
  let next = 0;
  for (const b of ordered) {
    if (b.events.every((e) => e.isDropped)) continue;
    const index = next++;
    for (const e of b.events) {
      if (e.json!.index !== index) {
        e.json!.index = index;
        e.isEdited = true;
      }
    }
  }
  if (stop && edit.finish !== 'unchanged') {
    stop.json!.delta = { ...(stop.json!.delta as Json), stop_reason: ANTHROPIC_STOP[edit.finish] };
    stop.isEdited = true;
  }
  return writeSse(events);
}

/** length in code points, as spread() cuts */
function cpLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function joinFragments(frags: Fragment[]): string {
  return frags.map((f) => String(f.holder[f.key])).join('');
}

/** the new text over the old pieces, each as long as it was, the last taking the rest; empty pieces dropped */
function spreadInto(frags: Fragment[], text: string): void {
  const pieces = spread(
    text,
    frags.map((f) => f.length),
  );
  frags.forEach((f, i) => {
    if (f.holder[f.key] === pieces[i]) return;
    f.holder[f.key] = pieces[i];
    f.event.isEdited = true;
    if (pieces[i] === '' && f.key !== 'content' && isOnlyDelta(f.event)) f.event.isDropped = true;
  });
}

/** an Anthropic delta event whose only payload was this piece */
function isOnlyDelta(e: SseEvent): boolean {
  return e.json?.type === 'content_block_delta';
}

function spread(text: string, lengths: number[]): string[] {
  if (lengths.length === 0) return [];
  const chars = Array.from(text);
  const out: string[] = [];
  let at = 0;
  lengths.forEach((len, i) => {
    const take = i === lengths.length - 1 ? chars.length - at : Math.min(len, chars.length - at);
    out.push(chars.slice(at, at + take).join(''));
    at += take;
  });
  return out;
}

function objectOr(args: string): Json {
  try {
    const v = JSON.parse(args) as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Json;
  } catch {
    // a cut input: what a max_tokens cut leaves of an object is no object
  }
  return {};
}
