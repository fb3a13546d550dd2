/**
 * `arena target check URL`: the Arena Target Protocol v1 conformance kit. It
 * exercises every route of a server as the arena would use it, and then the
 * edges: idempotent ids, DELETE, lease renewal and expiry, error codes for an
 * unknown agent, an unsupported fault and a malformed body, and the token.
 * Each check says what it expected and what came back. Every fault it applies
 * is deleted again at the end.
 */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ACTION_TYPES, SELF_TARGETING, type ActionType } from '../../arena/action.js';
import { httpCall } from '../../shared/http-call.js';
import { checkTargetDocument, DEFAULT_MAX_TARGET_ANSWER_BYTES, type TargetDocument } from './client.js';

export interface CheckResult {
  name: string;
  ok: boolean;
  /** on failure: expected …, got … */
  detail?: string;
}

export interface ConformanceOptions {
  url: string;
  token?: string;
  /** the lease the kit's test fault starts with (default 400 ms); it renews it for three times that */
  leaseMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** ms, for the lease checks' waits (default performance.now) */
  now?: () => number;
}

interface Answer {
  status: number;
  json: unknown;
  text: string;
}

/** agent faults that stay until reverted, in the order the kit prefers them */
const REVERSIBLE = ['pause_agent', 'network_partition', 'slow_agent', 'tool_timeout', 'llm_failure'] as const;
/** the params the kit sends with each fault type (a new type needs its sample here to be checked) */
const PARAMS: Record<ActionType, Record<string, unknown>> = {
  kill_agent: {},
  kill_leader: {},
  kill_orchestrator: {},
  pause_agent: {},
  resume_agent: {},
  slow_agent: { delay_ms: 100 },
  network_partition: {},
  tool_timeout: {},
  memory_corrupt: {},
  mcp_disconnect: {},
  llm_failure: { error_type: 'rate_limit' },
  remove_node: {},
  remove_edge: {},
  tool_fault: { mode: 'empty' },
};

export async function checkConformance(options: ConformanceOptions): Promise<CheckResult[]> {
  const base = options.url.replace(/\/+$/, '');
  const leaseMs = options.leaseMs ?? 400;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? (() => performance.now());
  const results: CheckResult[] = [];
  const created = new Set<string>();
  const run = `check-${randomUUID().slice(0, 8)}`;
  let n = 0;
  const nextId = () => `${run}-${++n}`;

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    token: string | null | undefined = options.token,
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await httpCall({
      method,
      url: `${base}${path}`,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      timeoutMs: options.timeoutMs ?? 5000,
      maxBytes: DEFAULT_MAX_TARGET_ANSWER_BYTES,
    });
    const text = res.body;
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json, text };
  };
  const record = (name: string, ok: boolean, expected: string, got: () => string) => {
    results.push(ok ? { name, ok } : { name, ok, detail: `expected ${expected}, got ${got()}` });
    return ok;
  };
  const show = (a: Answer) => `${a.status} ${a.text.length > 160 ? `${a.text.slice(0, 160)}…` : a.text}`;
  const isErrorBody = (a: Answer, code: string) =>
    typeof (a.json as { error?: unknown })?.error === 'string' && (a.json as { code?: unknown }).code === code;
  const listed = async (): Promise<Array<{ id: string; type: string; target_id?: string }>> => {
    const a = await call('GET', '/v1/faults');
    const faults = (a.json as { faults?: unknown })?.faults;
    return Array.isArray(faults) ? (faults as Array<{ id: string; type: string; target_id?: string }>) : [];
  };
  const post = (fields: Record<string, unknown>) =>
    call('POST', '/v1/faults', { params: {}, lease_ms: 30_000, ...fields });

  // 1. the target document: everything else depends on it
  let doc: TargetDocument;
  try {
    const a = await call('GET', '/v1/target');
    if (a.status === 401) {
      // not a protocol failure: the kit could not get in, so nothing else is checked
      results.push({
        name: options.token ? 'the server accepts the token' : 'the server answers without a token',
        ok: false,
        detail: options.token
          ? `token rejected (401): the server expects another one (check --token, --token-file or ARENA_TARGET_TOKEN)`
          : `the server needs a token (401): give it with --token-file, ARENA_TARGET_TOKEN or --token`,
      });
      return results;
    }
    if (a.status !== 200) {
      record(
        'GET /v1/target answers the target document',
        false,
        '200 with {protocol: 1, name, agents, dag, faults, workload, invariants}',
        () => show(a),
      );
      return results;
    }
    doc = checkTargetDocument(a.json, base);
    record('GET /v1/target answers the target document', true, '', () => '');
  } catch (err) {
    results.push({ name: 'GET /v1/target answers the target document', ok: false, detail: (err as Error).message });
    return results;
  }

  try {
    if (options.token) {
      const none = await call('GET', '/v1/target', undefined, null);
      record(
        'a request without the token is refused (401 {error, code})',
        none.status === 401 && typeof (none.json as { error?: unknown })?.error === 'string',
        '401 with {error, code}',
        () => show(none),
      );
      const wrong = await call('GET', '/v1/faults', undefined, `${options.token}-wrong`);
      record('a request with a wrong token is refused (401)', wrong.status === 401, '401', () => show(wrong));
    }

    const agent = doc.agents[0]?.id;
    const type = REVERSIBLE.find((t) => doc.faults.includes(t));
    if (!agent || !type) {
      results.push({
        name: 'a reversible agent fault to test with',
        ok: false,
        detail: `expected an agent and one of ${REVERSIBLE.join(', ')} in faults, got agents [${doc.agents.map((a) => a.id).join(', ')}] and faults [${doc.faults.join(', ')}]`,
      });
    } else {
      // 2. apply, list, repeat, delete
      const id = nextId();
      created.add(id);
      const fault = { id, type, target_id: agent, params: PARAMS[type], duration_ms: 60_000 };
      const first = await post(fault);
      const firstOk = record(
        `POST /v1/faults applies ${type} on ${agent} (201 {id, report})`,
        first.status === 201 &&
          (first.json as { id?: unknown })?.id === id &&
          typeof (first.json as { report?: unknown }).report === 'object',
        `201 {"id":"${id}","report":{…}}`,
        () => show(first),
      );
      if (firstOk) {
        const list1 = await listed();
        const mine = list1.filter((f) => f.id === id);
        record(
          'GET /v1/faults lists the active fault with its type and target',
          mine.length === 1 && mine[0]!.type === type && mine[0]!.target_id === agent,
          `one entry {id: "${id}", type: "${type}", target_id: "${agent}"}`,
          () => JSON.stringify(mine),
        );
        const sameBefore = list1.filter((f) => f.type === type && f.target_id === agent).length;
        const again = await post(fault);
        const list2 = await listed();
        const sameAfter = list2.filter((f) => f.type === type && f.target_id === agent).length;
        record(
          'the same fault id again answers 200 with the same body',
          again.status === 200 && isDeepStrictEqual(again.json, first.json),
          `200 ${first.text}`,
          () => show(again),
        );
        record(
          'the same fault id again applies nothing twice',
          sameAfter === sameBefore && list2.filter((f) => f.id === id).length === 1,
          `${sameBefore} active ${type} fault(s) on ${agent}`,
          () => `${sameAfter}`,
        );
        const del = await call('DELETE', `/v1/faults/${encodeURIComponent(id)}`);
        record(
          'DELETE /v1/faults/{id} reverts it',
          del.status === 200 && isDeepStrictEqual(del.json, { id, reverted: true }),
          `200 {"id":"${id}","reverted":true}`,
          () => show(del),
        );
        const gone = !(await listed()).some((f) => f.id === id);
        record('a reverted fault is no longer listed', gone, 'it gone from GET /v1/faults', () => 'it still listed');
        const del2 = await call('DELETE', `/v1/faults/${encodeURIComponent(id)}`);
        record(
          'DELETE of a reverted fault answers reverted:false',
          del2.status === 200 && isDeepStrictEqual(del2.json, { id, reverted: false }),
          `200 {"id":"${id}","reverted":false}`,
          () => show(del2),
        );
      }
      const unknownDel = await call('DELETE', `/v1/faults/${run}-never-applied`);
      record(
        'DELETE of an unknown id answers reverted:false',
        unknownDel.status === 200 && (unknownDel.json as { reverted?: unknown })?.reverted === false,
        '200 {"reverted":false}',
        () => show(unknownDel),
      );

      // 3. leases: renewal keeps a fault, silence reverts it. Each wait is measured from when a request
      // was sent or answered, so a slow machine or server makes the kit wait longer, not fail: the
      // renewal goes out at once, for three leases, and the listing has the two leases between the
      // first lease's end and the renewed one's to land in.
      const leased = nextId();
      created.add(leased);
      const applied = await post({ id: leased, type, target_id: agent, params: PARAMS[type], lease_ms: leaseMs });
      const appliedAt = now();
      if (applied.status === 201) {
        const renewedMs = 3 * leaseMs;
        const renewSentAt = now();
        const renew = await call('POST', '/v1/leases', { ids: [leased, `${run}-never-applied`], lease_ms: renewedMs });
        const renewedAt = now();
        record(
          'POST /v1/leases renews active faults only',
          renew.status === 200 && isDeepStrictEqual(renew.json, { renewed: [leased] }),
          `200 {"renewed":["${leased}"]}`,
          () => show(renew),
        );
        // past the first lease however late the server started it (no later than its answer)
        await sleep(Math.max(0, Math.ceil(appliedAt + leaseMs + 50 - now())));
        const listSentAt = now();
        const kept = (await listed()).some((f) => f.id === leased);
        const listedAt = now();
        record(
          'a renewed fault outlives its first lease',
          kept,
          `it still listed ${Math.round(listSentAt - appliedAt)} ms after its ${leaseMs} ms lease began, renewed for ${renewedMs} ms`,
          // inside the renewed lease however early the server renewed it (no sooner than the request was sent)
          () =>
            listedAt < renewSentAt + renewedMs
              ? 'it gone'
              : `it gone, in an answer that came ${Math.round(listedAt - renewSentAt)} ms after the renewal was sent, past the renewed lease`,
        );
        await sleep(Math.max(0, Math.ceil(renewedAt + renewedMs + 300 - now())));
        const expired = !(await listed()).some((f) => f.id === leased);
        record(
          'a fault whose lease runs out is reverted by the target',
          expired,
          `it gone once its ${renewedMs} ms lease ran out unrenewed`,
          () => `it still listed 300 ms after the renewed lease ended`,
        );
      } else {
        record(`POST /v1/faults with lease_ms ${leaseMs}`, false, '201', () => show(applied));
      }
    }

    // 4. error codes, and nothing applied by a refused request
    const before = (await listed()).length;
    const ghost = nextId();
    created.add(ghost);
    const unknownAgent = await post({
      id: ghost,
      type: type ?? 'kill_agent',
      target_id: `${run}-no-such-agent`,
      params: type ? PARAMS[type] : {},
    });
    record(
      'a fault on an unknown agent answers 404 not_found',
      unknownAgent.status === 404 && isErrorBody(unknownAgent, 'not_found'),
      '404 {"error":…,"code":"not_found"}',
      () => show(unknownAgent),
    );
    // a fault the target does not list, named by the user (the self-targeting kills find their own
    // target, and resume_agent only ends a pause); a made-up type when it lists all of them
    const unsupportedType =
      ACTION_TYPES.find((t) => !SELF_TARGETING.has(t) && t !== 'resume_agent' && !doc.faults.includes(t)) ??
      'arena_check_no_such_fault';
    const unsupportedId = nextId();
    created.add(unsupportedId);
    const refused = await post({ id: unsupportedId, type: unsupportedType, target_id: agent ?? 'x' });
    record(
      `a fault the target does not offer (${unsupportedType}) answers 422 unsupported`,
      refused.status === 422 && isErrorBody(refused, 'unsupported'),
      '422 {"error":…,"code":"unsupported"}',
      () => show(refused),
    );
    const malformed = await call('POST', '/v1/faults', { id: nextId() });
    record(
      'a malformed fault request answers 400 {error, code}',
      malformed.status === 400 && typeof (malformed.json as { error?: unknown })?.error === 'string',
      '400 {"error":…,"code":…}',
      () => show(malformed),
    );
    const after = (await listed()).length;
    record('refused requests applied nothing', after <= before, `${before} active fault(s)`, () => `${after}`);

    // 5. observation routes
    const health = await call('GET', '/v1/health?scope=target');
    record(
      'GET /v1/health?scope=target answers {healthy, problems}',
      health.status === 200 && isHealth(health.json),
      '200 {"healthy":bool,"problems":[…]}',
      () => show(health),
    );
    if (agent) {
      const agentHealth = await call('GET', `/v1/health?scope=agent&id=${encodeURIComponent(agent)}`);
      record(
        'GET /v1/health?scope=agent&id=… answers {healthy, problems}',
        agentHealth.status === 200 && isHealth(agentHealth.json),
        '200 {"healthy":bool,"problems":[…]}',
        () => show(agentHealth),
      );
    }
    const workload = await call('GET', '/v1/workload');
    if (doc.workload)
      record(
        'GET /v1/workload answers cumulative counters',
        workload.status === 200 && isCounters(workload.json),
        '200 {"requests","succeeded","failed"} as numbers',
        () => show(workload),
      );
    else
      record('GET /v1/workload answers 404 when workload is false', workload.status === 404, '404', () =>
        show(workload),
      );
    const invariants = await call('POST', '/v1/invariants');
    if (doc.invariants)
      record(
        'POST /v1/invariants answers {checks: [{name, passed}]}',
        invariants.status === 200 && isChecks(invariants.json),
        '200 {"checks":[{"name","passed"}]}',
        () => show(invariants),
      );
    else
      record('POST /v1/invariants answers 404 when invariants is false', invariants.status === 404, '404', () =>
        show(invariants),
      );
  } finally {
    for (const id of created) await call('DELETE', `/v1/faults/${encodeURIComponent(id)}`).catch(() => undefined);
  }
  return results;
}

function isHealth(json: unknown): boolean {
  const h = json as { healthy?: unknown; problems?: unknown } | undefined;
  return typeof h?.healthy === 'boolean' && Array.isArray(h.problems);
}

function isCounters(json: unknown): boolean {
  const c = json as Record<string, unknown> | undefined;
  return ['requests', 'succeeded', 'failed'].every((k) => typeof c?.[k] === 'number' && (c[k] as number) >= 0);
}

function isChecks(json: unknown): boolean {
  const checks = (json as { checks?: unknown } | undefined)?.checks;
  return (
    Array.isArray(checks) &&
    checks.every(
      (c) =>
        typeof (c as { name?: unknown }).name === 'string' && typeof (c as { passed?: unknown }).passed === 'boolean',
    )
  );
}
