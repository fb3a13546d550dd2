/**
 * The LLM proxy's spans (DESIGN §17), when tracing is on: one CLIENT span per
 * request with the GenAI semantic-convention attributes, a child of the
 * agent's own `traceparent` when it sent one, and propagated upstream (the
 * request goes on with the proxy span's `traceparent`), so an injected 429
 * shows up inside the agent's trace, between its call and the API's answer.
 * The answer still streams untouched: its bytes are looked at on their way
 * out for the model and the token usage (an event stream line by line, a JSON
 * body up to a bound), never held back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import type { Span } from '@opentelemetry/api';
import type { Tracing } from '../../shared/otlp/tracing.js';
import type { LlmApi } from './wire-errors.js';

/** the most of a JSON answer kept to read its usage; a longer one is traced without it */
const MAX_JSON_BYTES = 4 * 1024 * 1024;
/** the longest event-stream line read; longer ones are skipped */
const MAX_LINE_CHARS = 1024 * 1024;

export interface LlmCallTrace {
  /** the request body's `model` (read when the request arrived) */
  requestModel(model: string | undefined): void;
  /** a fault acted on this request (its error type, e.g. `rate_limit`) */
  fault(type: string): void;
}

/** what an answer said about itself */
interface AnswerFacts {
  model?: string;
  id?: string;
  input?: number;
  output?: number;
  finishReasons: string[];
}

/**
 * Starts the span of one proxied request and ends it when the answer is over.
 * Rewrites the request's `traceparent` (and drops its `tracestate`'s stale
 * parent) in place, before the proxy forwards it, so the upstream sees the
 * proxy's span as its parent.
 */
export function traceLlmCall(
  tracing: Pick<Tracing, 'api' | 'tracer' | 'propagator'>,
  req: IncomingMessage,
  res: ServerResponse,
  call: { api: LlmApi; pathname: string; upstream: URL },
): LlmCallTrace {
  const { api, tracer, propagator } = tracing;
  const parent = propagator.extract(api.ROOT_CONTEXT, req.headers, {
    get: (carrier, key) => carrier[key],
    keys: (carrier) => Object.keys(carrier),
  });
  const operation = operationOf(call.pathname);
  const span: Span = tracer.startSpan(
    operation,
    {
      kind: api.SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': operation,
        'gen_ai.provider.name': call.api,
        // the name before semantic conventions 1.37, still what many backends read
        'gen_ai.system': call.api,
        'server.address': call.upstream.hostname,
        'server.port': Number(call.upstream.port || (call.upstream.protocol === 'https:' ? 443 : 80)),
        'url.path': call.pathname,
      },
    },
    parent,
  );
  const carrier: Record<string, string> = {};
  propagator.inject(api.trace.setSpan(parent, span), carrier, {
    set: (c, key, value) => {
      c[key] = value;
    },
  });
  replaceHeaders(req, carrier);

  const facts: AnswerFacts = { finishReasons: [] };
  const reader = answerReader(res, facts);
  let faultType: string | undefined;
  res.once('close', () => {
    reader.finish();
    const status = res.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (facts.model !== undefined) span.setAttribute('gen_ai.response.model', facts.model);
    if (facts.id !== undefined) span.setAttribute('gen_ai.response.id', facts.id);
    if (facts.input !== undefined) span.setAttribute('gen_ai.usage.input_tokens', facts.input);
    if (facts.output !== undefined) span.setAttribute('gen_ai.usage.output_tokens', facts.output);
    if (facts.finishReasons.length > 0) span.setAttribute('gen_ai.response.finish_reasons', facts.finishReasons);
    const errorType = status >= 400 ? String(status) : !res.writableFinished ? 'connection_closed' : undefined;
    if (errorType !== undefined) {
      span.setAttribute('error.type', errorType);
      span.setStatus({
        code: api.SpanStatusCode.ERROR,
        message: faultType ? `injected ${faultType}` : `answered ${errorType}`,
      });
    }
    span.end();
  });
  return {
    requestModel(model) {
      if (model === undefined) return;
      span.setAttribute('gen_ai.request.model', model);
      span.updateName(`${operation} ${model}`);
    },
    fault(type) {
      faultType = type;
      span.setAttribute('chaos.fault.type', type);
      span.addEvent('chaos.fault', { 'chaos.fault.type': type });
    },
  };
}

/** `gen_ai.operation.name` from the API path */
function operationOf(pathname: string): string {
  if (/\/embeddings$/.test(pathname)) return 'embeddings';
  if (/(^|\/)completions$/.test(pathname) && !/chat\/completions$/.test(pathname)) return 'text_completion';
  return 'chat';
}

/** the request's trace headers replaced by the proxy span's (raw headers are what the upstream call copies) */
function replaceHeaders(req: IncomingMessage, carrier: Record<string, string>): void {
  const raw: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    if (name === 'traceparent' || name === 'tracestate') continue;
    raw.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  delete req.headers.traceparent;
  delete req.headers.tracestate;
  for (const [name, value] of Object.entries(carrier)) {
    raw.push(name, value);
    req.headers[name] = value;
  }
  req.rawHeaders = raw;
}

/**
 * Looks at the answer's bytes as the proxy writes them (whatever path wrote
 * them: a relay, a rewritten answer, an injected error) without changing them.
 */
function answerReader(res: ServerResponse, facts: AnswerFacts): { finish(): void } {
  const write = res.write;
  const end = res.end;
  const writeHead = res.writeHead;
  // headers given to writeHead as a raw list (how the proxy relays them) are not readable with getHeader
  const given: Record<string, string> = {};
  let kind: 'sse' | 'json' | 'other' | undefined;
  const decoder = new StringDecoder('utf8');
  let line = '';
  const body: Buffer[] = [];
  let bodyBytes = 0;

  const see = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    kind ??= kindOf(headerOf('content-type'));
    if (kind === 'other') return;
    const buf =
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    if (kind === 'json') {
      bodyBytes += buf.length;
      if (bodyBytes <= MAX_JSON_BYTES) body.push(buf);
      return;
    }
    const text = line + decoder.write(buf);
    const lines = text.split('\n');
    line = lines.pop() ?? '';
    if (line.length > MAX_LINE_CHARS) line = '';
    for (const l of lines) readEventLine(l, facts);
  };
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((a) => typeof a === 'object' && a !== null);
    if (Array.isArray(headers)) {
      const flat = (headers as unknown[]).flat() as unknown[];
      for (let i = 0; i + 1 < flat.length; i += 2) given[String(flat[i]).toLowerCase()] = String(flat[i + 1]);
    } else if (headers) for (const [k, v] of Object.entries(headers)) given[k.toLowerCase()] = String(v);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  const headerOf = (name: string) => given[name] ?? res.getHeader(name);
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    see(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    see(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;

  return {
    finish() {
      if (kind === 'sse') readEventLine(line + decoder.end(), facts);
      if (kind !== 'json' || bodyBytes > MAX_JSON_BYTES || body.length === 0) return;
      const text = decode(Buffer.concat(body), headerOf('content-encoding'));
      if (text === undefined) return;
      try {
        readAnswer(JSON.parse(text), facts);
      } catch {
        // not JSON after all: no usage to read
      }
    },
  };
}

function kindOf(contentType: unknown): 'sse' | 'json' | 'other' {
  const type = String(contentType ?? '').toLowerCase();
  if (type.startsWith('text/event-stream')) return 'sse';
  return type.includes('json') ? 'json' : 'other';
}

/** a JSON answer's text, decompressed when the upstream compressed it; undefined when it cannot be read */
function decode(buf: Buffer, encoding: unknown): string | undefined {
  const limit = { maxOutputLength: MAX_JSON_BYTES };
  try {
    switch (String(encoding ?? 'identity').toLowerCase()) {
      case 'identity':
        return buf.toString('utf8');
      case 'gzip':
        return zlib.gunzipSync(buf, limit).toString('utf8');
      case 'deflate':
        return zlib.inflateSync(buf, limit).toString('utf8');
      case 'br':
        return zlib.brotliDecompressSync(buf, limit).toString('utf8');
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

function readEventLine(line: string, facts: AnswerFacts): void {
  if (!line.startsWith('data:')) return;
  const data = line.slice(5).trim();
  // most stream events are text deltas: only those that can carry the model or the usage are parsed
  if (!data.startsWith('{') || (facts.model !== undefined && !data.includes('"usage"') && !data.includes('finish')))
    return;
  try {
    readAnswer(JSON.parse(data), facts);
  } catch {
    // a line that is not JSON carries nothing we read
  }
}

/**
 * The model, id, token usage and finish reasons of an answer or stream event,
 * in OpenAI's (chat completions, responses) and Anthropic's shapes.
 */
function readAnswer(json: unknown, facts: AnswerFacts): void {
  if (typeof json !== 'object' || json === null) return;
  const top = json as Record<string, unknown>;
  // responses API events wrap the response; Anthropic's message_start wraps the message
  const o = (isObject(top.response) ? top.response : isObject(top.message) ? top.message : top) as Record<
    string,
    unknown
  >;
  if (facts.model === undefined && typeof o.model === 'string') facts.model = o.model;
  if (facts.id === undefined && typeof o.id === 'string') facts.id = o.id;
  const usage = isObject(o.usage) ? o.usage : isObject(top.usage) ? top.usage : undefined;
  if (usage) {
    const input = numberOf(usage.input_tokens) ?? numberOf(usage.prompt_tokens);
    const output = numberOf(usage.output_tokens) ?? numberOf(usage.completion_tokens);
    if (input !== undefined) facts.input = input;
    if (output !== undefined) facts.output = output;
  }
  const reasons: unknown[] = [];
  if (Array.isArray(o.choices)) for (const c of o.choices) if (isObject(c)) reasons.push(c.finish_reason);
  if (isObject(top.delta)) reasons.push(top.delta.stop_reason);
  reasons.push(o.stop_reason);
  for (const r of reasons)
    if (typeof r === 'string' && r !== '' && !facts.finishReasons.includes(r)) facts.finishReasons.push(r);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numberOf(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
