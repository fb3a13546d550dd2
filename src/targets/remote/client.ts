/**
 * An Arena Target Protocol v1 client over node:http with a keep-alive agent. Every failure says which
 * URL and why: unreachable (with the cause), timed out, a non-JSON answer, or
 * the target's own `{error, code}` mapped to the arena's typed errors
 * (404 → NotFoundError, 401 → a token problem, anything else → RuntimeError).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import { ArenaError, NotFoundError, RuntimeError, errorMessage } from '../../shared/errors.js';
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
  /** per request (default 2 s) */
  timeoutMs?: number;
}

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

  const call = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let answer: { status: number; text: string };
    try {
      answer = await request(`${base}${path}`, method, headers, payload, timeoutMs, agent);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ETIMEDOUT' ? `no answer within ${timeoutMs} ms` : (e.code ?? errorMessage(err));
      throw new RuntimeError(`target ${base} is unreachable (${method} ${path}): ${why}`, 'target_unreachable', {
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
        'target_bad_answer',
      );
    }
    if (status === 401 || status === 403) {
      throw new RuntimeError(
        `target ${base} refused the request (${status}): ${describe(json) ?? 'missing or wrong token'}; set the token with token_env`,
        'target_unauthorized',
      );
    }
    if (status >= 400) {
      const { error, code } = (json ?? {}) as { error?: unknown; code?: unknown };
      const message = typeof error === 'string' ? error : `${method} ${path} answered ${status}`;
      const machine = typeof code === 'string' ? code : `http_${status}`;
      if (status === 404 && machine === 'not_found') throw new NotFoundError(message, 'not_found');
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
    deleteFault: async (id: string) =>
      (await call<{ id: string; reverted: boolean }>('DELETE', `/v1/faults/${encodeURIComponent(id)}`)).json,
    renew: async (ids: string[], leaseMs: number) =>
      (await call<{ renewed: string[] }>('POST', '/v1/leases', { ids, lease_ms: leaseMs })).json.renewed,
    health: async (query: string) => (await call<HealthReport>('GET', `/v1/health?${query}`)).json,
    workload: async () => (await call<WorkloadCounters>('GET', '/v1/workload')).json,
    invariants: async () => (await call<{ checks: InvariantCheck[] }>('POST', '/v1/invariants')).json.checks,
  };
}

/** one request on node:http (several times cheaper per call than fetch over loopback) */
function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  payload: string | undefined,
  timeoutMs: number,
  agent: http.Agent,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? https : http).request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end(payload);
  });
}

function describe(json: unknown): string | undefined {
  const error = (json as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : undefined;
}

/** `GET /v1/target` must say protocol 1 and carry the fields the arena relies on. */
export function checkTargetDocument(json: unknown, url: string): TargetDocument {
  const bad = (why: string) =>
    new RuntimeError(`target ${url} answered GET /v1/target with an unusable document: ${why}`, 'target_bad_answer');
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
