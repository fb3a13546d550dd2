/**
 * An Arena Target Protocol v1 client over node:http with a keep-alive agent. Every failure says which
 * URL and why: unreachable (with the cause), timed out, a non-JSON answer, or
 * the target's own `{error, code}` mapped to the arena's typed errors
 * (404 → NotFoundError, 401 → a token problem, anything else → RuntimeError).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { ArenaError, CancelledError, NotFoundError, RuntimeError } from '../../shared/errors.js';
import { httpCall, OutboundCallError } from '../../shared/http-call.js';
import type { FaultAccepted, FaultRequest, WireActiveFault } from '../../protocol/wire.js';
import type { AgentInfo, DAGEdge, HealthReport, InvariantCheck, WorkloadCounters } from '../../arena/providers.js';

export interface TargetDocument {
  protocol: number;
  name: string;
  agents: AgentInfo[];
  dag: { nodes: string[]; edges: DAGEdge[] } | null;
  faults: string[];
  workload: boolean;
  invariants: boolean;
}

export interface ProtocolClientOptions {
  url: string;
  token?: string;
  /** per request, the whole of it (default 2 s) */
  timeoutMs?: number;
  /** the largest answer taken (default 8 MiB) */
  maxBytes?: number;
  /** aborts the reads in flight when it fires (Ctrl-C); reverts and lease renewals are never aborted */
  signal?: AbortSignal;
}

export const DEFAULT_MAX_TARGET_ANSWER_BYTES = 8 * 1024 * 1024;

/** The target answered with an error status; `status` and `code` are the target's own. */
export class TargetAnswerError extends ArenaError {
  constructor(
    message: string,
    readonly targetStatus: number,
    code: string,
  ) {
    super(message, { code, status: targetStatus === 404 ? 404 : 502 });
  }
}

export function createProtocolClient(options: ProtocolClientOptions) {
  const base = options.url.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 2000;
  // one kept-alive connection pool per target: a fault costs two round trips, not two handshakes
  const agent = new (base.startsWith('https:') ? https.Agent : http.Agent)({ keepAlive: true, maxSockets: 8 });

  const maxBytes = options.maxBytes ?? DEFAULT_MAX_TARGET_ANSWER_BYTES;

  const call = async <T>(
    method: string,
    path: string,
    body?: unknown,
    abortable = true,
  ): Promise<{ status: number; json: T }> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let answer: { status: number; text: string };
    try {
      const got = await httpCall({
        method,
        url: `${base}${path}`,
        headers,
        ...(payload !== undefined ? { body: payload } : {}),
        timeoutMs,
        maxBytes,
        agent,
        ...(abortable && options.signal ? { signal: options.signal } : {}),
      });
      answer = { status: got.status, text: got.body };
    } catch (err) {
      if (!(err instanceof OutboundCallError)) throw err;
      if (err.failure === 'too_large')
        throw new RuntimeError(`target ${base} answered ${method} ${path} with more than ${maxBytes} bytes`, {
          code: 'target_bad_answer',
        });
      const why = err.message.slice(err.message.indexOf(': ') + 2);
      if (err.failure === 'aborted')
        throw new CancelledError(`interrupted while waiting for target ${base} (${method} ${path})`, { cause: err });
      throw new RuntimeError(`target ${base} is unreachable (${method} ${path}): ${why}`, {
        code: 'target_unreachable',
        cause: err,
      });
    }
    const { status, text } = answer;
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new RuntimeError(
        `target ${base} answered ${method} ${path} with ${status} and a body that is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
        { code: 'target_bad_answer' },
      );
    }
    if (status === 401 || status === 403) {
      throw new RuntimeError(
        `target ${base} refused the request (${status}): ${describe(json) ?? 'missing or wrong token'}; set the token with token_env`,
        { code: 'target_unauthorized' },
      );
    }
    if (status >= 400) {
      const { error, code } = (json ?? {}) as { error?: unknown; code?: unknown };
      const message = typeof error === 'string' ? error : `${method} ${path} answered ${status}`;
      const machine = typeof code === 'string' ? code : `http_${status}`;
      if (status === 404 && machine === 'not_found') throw new NotFoundError(message, { code: 'not_found' });
      throw new TargetAnswerError(message, status, machine);
    }
    return { status, json: json as T };
  };

  return {
    url: base,
    call,
    close: () => agent.destroy(),
    target: async () => checkTargetDocument((await call<unknown>('GET', '/v1/target')).json, base),
    addFault: async (request: FaultRequest) => (await call<FaultAccepted>('POST', '/v1/faults', request)).json,
    listFaults: async () => (await call<{ faults: WireActiveFault[] }>('GET', '/v1/faults')).json.faults,
    // a revert and a lease renewal run to their own deadline, even on the way out of an interrupted run
    deleteFault: async (id: string) =>
      (
        await call<{ id: string; reverted: boolean }>(
          'DELETE',
          `/v1/faults/${encodeURIComponent(id)}`,
          undefined,
          false,
        )
      ).json,
    renew: async (ids: string[], leaseMs: number) =>
      (await call<{ renewed: string[] }>('POST', '/v1/leases', { ids, lease_ms: leaseMs }, false)).json.renewed,
    health: async (query: string) => (await call<HealthReport>('GET', `/v1/health?${query}`)).json,
    workload: async () => (await call<WorkloadCounters>('GET', '/v1/workload')).json,
    invariants: async () => (await call<{ checks: InvariantCheck[] }>('POST', '/v1/invariants')).json.checks,
  };
}

function describe(json: unknown): string | undefined {
  const error = (json as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : undefined;
}

/** `GET /v1/target` must say protocol 1 and carry the fields the arena relies on. */
export function checkTargetDocument(json: unknown, url: string): TargetDocument {
  const bad = (why: string) =>
    new RuntimeError(`target ${url} answered GET /v1/target with an unusable document: ${why}`, {
      code: 'target_bad_answer',
    });
  if (json === null || typeof json !== 'object') throw bad('not a JSON object');
  const d = json as Record<string, unknown>;
  if (d.protocol !== 1) throw bad(`protocol is ${JSON.stringify(d.protocol)}, this arena speaks protocol 1`);
  if (typeof d.name !== 'string') throw bad('name is not a string');
  if (!Array.isArray(d.agents) || d.agents.some((a) => typeof (a as AgentInfo)?.id !== 'string'))
    throw bad('agents is not a list of {id, role, status, restarts}');
  if (!Array.isArray(d.faults) || d.faults.some((f) => typeof f !== 'string'))
    throw bad('faults is not a list of fault types');
  if (d.dag !== null && (typeof d.dag !== 'object' || !Array.isArray((d.dag as { nodes?: unknown }).nodes)))
    throw bad('dag is neither null nor {nodes, edges}');
  return {
    protocol: 1,
    name: d.name,
    agents: d.agents as AgentInfo[],
    dag: (d.dag as TargetDocument['dag']) ?? null,
    faults: d.faults as string[],
    workload: d.workload === true,
    invariants: d.invariants === true,
  };
}
