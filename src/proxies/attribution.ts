/**
 * How a proxy tells which trial a call belongs to (DESIGN §14): the headers an
 * agent forwards on its LLM calls and on MCP over HTTP. Kept short: the
 * ledger stays bounded whatever a client sends.
 */
import type { NewCall } from '../protocol/calls.js';

/** most characters kept of a forwarded header or a model name */
const MAX_TEXT = 200;

export type Attribution = Pick<NewCall, 'trial' | 'trace_id' | 'client'>;

export const clip = (text: string): string => text.slice(0, MAX_TEXT);

/** the attribution headers of a request (LLM or MCP over HTTP): trial, trace id, client */
export function attribution(req: { headers: Record<string, string | string[] | undefined> }): Attribution {
  const out: Attribution = {};
  const trial = header(req.headers['x-arena-trial']);
  if (trial !== undefined) out.trial = trial;
  const traceId = traceIdOf(header(req.headers.traceparent));
  if (traceId !== undefined) out.trace_id = traceId;
  const client = header(req.headers['x-arena-client']);
  if (client !== undefined) out.client = client;
  return out;
}

function header(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v === '' ? undefined : clip(v);
}

/** W3C trace context: `version-traceid-parentid-flags`; an all-zero or malformed trace id is no trace id */
export function traceIdOf(traceparent: string | undefined): string | undefined {
  const m = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}/.exec(traceparent?.trim().toLowerCase() ?? '');
  if (!m || /^0+$/.test(m[1]!)) return undefined;
  return m[1];
}
