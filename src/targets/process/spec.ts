/**
 * The `kind: process` section of a target file (DESIGN §9.1) as a zod schema.
 * Objects are strict (an unknown key is an error at its path), durations are
 * strings with units or integer milliseconds up to 24 h, and every choice that
 * must be exactly one of several (pid source, probe kind) says so by name.
 */
import { z } from 'zod';
import { MAX_DURATION_MS } from '../../shared/duration.js';
import { durationMs as duration } from '../../shared/zod-problems.js';
import { parseJsonPath } from '../../shared/json-path.js';
import { trialSchemas, trialProblems } from '../trial-spec.js';

export { MAX_DURATION_MS };

const positiveDuration = duration.refine((ms) => ms > 0, { message: 'must be longer than 0ms' });

const port = z.int().min(0).max(65535);

const hostPort = z
  .string()
  .regex(/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, 'expected host:port, e.g. "127.0.0.1:7101"');

const httpUrl = z.string().refine((text) => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'expected an http:// or https:// URL');

const command = z.string().trim().min(1, 'expected a shell command');

/**
 * One strict object whose keys name the variants, then exactly one of them:
 * so an error inside a variant ("health.timeout: invalid duration") keeps its
 * own path and message instead of drowning in a union's "no variant matched".
 */
function exactlyOne<Shape extends z.ZodRawShape>(
  shape: Shape,
  variants: readonly (keyof Shape & string)[],
  extra = '',
) {
  return z.strictObject(shape).superRefine((value, ctx) => {
    const given = variants.filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `expected exactly one of ${variants.join(', ')}${extra}${given.length > 1 ? `, got ${given.join(' and ')}` : ''}`,
      });
    }
  });
}

/** A health probe: exactly one of http, tcp or command, with its timing. */
const probeFields = {
  interval: positiveDuration.optional(),
  timeout: positiveDuration.optional(),
  passes: z.int().min(1).max(100).optional(),
};
type ProbeKind = { http: string } | { tcp: string } | { command: string };
type Timing = { interval?: number; timeout?: number; passes?: number };
export const probeSchema = exactlyOne(
  { http: httpUrl.optional(), tcp: hostPort.optional(), command: command.optional(), ...probeFields },
  ['http', 'tcp', 'command'],
).transform((v) => v as ProbeKind & Timing);

const pidSchema = exactlyOne(
  { file: z.string().min(1).optional(), port: port.min(1).optional(), match: z.string().min(1).optional() },
  ['file', 'port', 'match'],
).transform((v) => v as { file: string } | { port: number } | { match: string });

/**
 * The agent's TCP fault proxy: one the arena starts (`listen` + `upstream`), or a proxy an
 * `arena toxiproxy` server already runs, named as its Toxiproxy clients name it (`toxiproxy` + `name`):
 * the arena's faults then act on that same proxy, beside the clients' toxics.
 */
type ProxyKind = { listen: number; upstream: string } | { toxiproxy: string; name: string; api_key_env?: string };
const proxySchema = exactlyOne(
  {
    listen: port.optional(),
    upstream: hostPort.optional(),
    toxiproxy: httpUrl.optional(),
    name: z.string().min(1).max(256).optional(),
    /** the environment variable holding the server's --api-key (needed off loopback) */
    api_key_env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
      .optional(),
  },
  ['listen', 'toxiproxy'],
)
  .superRefine((value, ctx) => {
    const pairs = [
      ['listen', 'upstream'],
      ['toxiproxy', 'name', 'api_key_env'],
    ] as const;
    // both given: exactlyOne has said so once already
    if (value.listen !== undefined && value.toxiproxy !== undefined) return;
    for (const [key, partner] of pairs) {
      const other = pairs.find((p) => p[0] !== key)!;
      if (value[key] === undefined) continue;
      if (value[partner] === undefined)
        ctx.addIssue({ code: 'custom', path: [partner], message: `required with ${key}` });
      for (const stray of other)
        if (value[stray] !== undefined)
          ctx.addIssue({ code: 'custom', path: [stray], message: `not allowed with ${key}` });
    }
  })
  .transform((v) => v as ProxyKind);
/**
 * The llm_failure recovery probe: by default it asks the path and model of the agents' own last call
 * through the proxy (else the API's default); each part can be fixed here for an upstream that needs it.
 */
const llmProbeSchema = z.strictObject({
  path: z
    .string()
    .regex(/^\/[^\s?#]*$/, 'expected a path starting with /, like /v1/responses')
    .optional(),
  model: z.string().trim().min(1).optional(),
  body: z.record(z.string(), z.unknown()).optional(),
});
const llmSchema = z.strictObject({
  listen: port,
  upstream: httpUrl,
  api: z.enum(['openai', 'anthropic']).default('openai'),
  probe: llmProbeSchema.optional(),
});
const mcpSchema = z.strictObject({ listen: port, upstream: httpUrl });

export const AGENT_ROLES = ['worker', 'orchestrator', 'standby'] as const;

const agentSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'expected 1-64 letters, digits, . _ -'),
  role: z.enum(AGENT_ROLES).default('worker'),
  pid: pidSchema,
  health: probeSchema,
  proxy: proxySchema.optional(),
  llm: llmSchema.optional(),
  mcp: mcpSchema.optional(),
});

/** a JSON path, parsed now: a malformed one is an error at its line and column, not a check that never matches */
const jsonPath = z
  .string()
  .min(1)
  .superRefine((path, ctx) => {
    const parsed = parseJsonPath(path);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.problem });
  });

/** `json: { path, equals | in | exists | range }`: exactly one test on the value found at path. */
const jsonExpect = z
  .strictObject({
    path: jsonPath,
    equals: z.unknown().optional(),
    in: z.array(z.unknown()).optional(),
    exists: z.boolean().optional(),
    range: z.strictObject({ min: z.number().optional(), max: z.number().optional() }).optional(),
  })
  .refine((e) => ['equals', 'in', 'exists', 'range'].filter((k) => k in e).length === 1, {
    message: 'expected exactly one of equals, in, exists, range',
  });

export const expectSchema = z.strictObject({
  status: z.union([z.int().min(100).max(599), z.array(z.int().min(100).max(599)).min(1)]).optional(),
  json: jsonExpect.optional(),
});

export const requestSchema = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    url: httpUrl,
    headers: z.record(z.string(), z.string()).optional(),
    json: z.unknown().optional(),
    body: z.string().optional(),
    timeout: positiveDuration.default(2000),
  })
  .refine((r) => r.json === undefined || r.body === undefined, { message: 'give json or body, not both' });

/** "20/s", "300/m" or a plain number per second. */
const rate = z.union([z.number(), z.string()]).transform((value, ctx) => {
  let perSecond: number | undefined;
  if (typeof value === 'number') perSecond = value;
  else {
    const m = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(s|m)\s*$/.exec(value);
    if (m) perSecond = Number(m[1]) / (m[2] === 'm' ? 60 : 1);
  }
  if (perSecond === undefined || !Number.isFinite(perSecond) || perSecond <= 0 || perSecond > 1000) {
    ctx.addIssue({
      code: 'custom',
      message: `invalid rate ${JSON.stringify(value)}: expected e.g. "20/s" or "300/m", above 0 and at most 1000/s`,
    });
    return z.NEVER;
  }
  return perSecond;
});

const workloadSchema = z.strictObject({
  rate,
  request: requestSchema,
  expect: expectSchema.default({}),
});

const invariantSchema = z.strictObject({
  name: z.string().min(1),
  request: requestSchema,
  expect: expectSchema.default({}),
  /** false: a failure counts in the consistency score only; by default a failed invariant fails the run */
  gate: z
    .boolean()
    .optional()
    .describe('false: a failure counts in the consistency score only; by default it fails the run'),
});

const leaderSchema = exactlyOne(
  {
    http: httpUrl.optional(),
    json: jsonPath.optional(),
    command: command.optional(),
    timeout: positiveDuration.optional(),
  },
  ['http', 'command'],
)
  .superRefine((v, ctx) => {
    if (v.http !== undefined && v.json === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['json'],
        message: 'leader.http needs json: the path of the leader id in its answer, e.g. "$.leader_id"',
      });
    if (v.command !== undefined && v.json !== undefined)
      ctx.addIssue({ code: 'custom', path: ['json'], message: 'json goes with http; a command prints the leader id' });
  })
  .transform((v) => v as ({ http: string; json: string } | { command: string }) & { timeout?: number });

/** Commands for faults that have no OS form; `{agent}` is replaced by the agent id. */
const hooksSchema = z.strictObject({ memory_corrupt: command.optional(), mcp_disconnect: command.optional() });

/** one of http, tcp or command; or only a timeout, to wait for every agent's probe */
const readySchema = z
  .strictObject({
    http: httpUrl.optional(),
    tcp: hostPort.optional(),
    command: command.optional(),
    timeout: positiveDuration.optional(),
  })
  .superRefine((v, ctx) => {
    const given = (['http', 'tcp', 'command'] as const).filter((k) => v[k] !== undefined);
    if (given.length > 1)
      ctx.addIssue({
        code: 'custom',
        message: `expected at most one of http, tcp, command, got ${given.join(' and ')}`,
      });
  })
  .transform((v) => v as ({ http: string } | { tcp: string } | { command: string } | object) & { timeout?: number });

const startSchema = z.strictObject({
  command,
  cwd: z.string().min(1).optional(),
  env: z.record(z.string(), z.string()).optional(),
  ready: readySchema.optional(),
  /** time between SIGTERM and SIGKILL at the end */
  grace: duration.optional(),
});

/** tasks, side_effects, prices (DESIGN §14): tasks are requests like the workload's */
export const trialKeys = trialSchemas(requestSchema, expectSchema);

export const processTargetSchema = z
  .strictObject({
    kind: z.literal('process'),
    name: z.string().min(1),
    description: z.string().optional(),
    start: startSchema.optional(),
    agents: z.array(agentSchema).min(1, 'a process target needs at least one agent'),
    leader: leaderSchema.optional(),
    llm: llmSchema.optional(),
    mcp: mcpSchema.optional(),
    hooks: hooksSchema.optional(),
    workload: workloadSchema.optional(),
    invariants: z.array(invariantSchema).optional(),
    ...trialKeys,
  })
  .superRefine((spec, ctx) => {
    const seen = new Map<string, number>();
    spec.agents.forEach((agent, i) => {
      const first = seen.get(agent.id);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['agents', i, 'id'],
          message: `duplicate agent id ${agent.id} (first at agents[${first}])`,
        });
      else seen.set(agent.id, i);
    });
    const listens = new Map<number, string>();
    const claim = (p: number, where: (string | number)[]) => {
      if (p === 0) return;
      const other = listens.get(p);
      if (other)
        ctx.addIssue({ code: 'custom', path: where, message: `port ${p} is already the listen port of ${other}` });
      else listens.set(p, where.join('.'));
    };
    spec.agents.forEach((a, i) => {
      if (a.proxy && 'listen' in a.proxy) claim(a.proxy.listen, ['agents', i, 'proxy', 'listen']);
      if (a.llm) claim(a.llm.listen, ['agents', i, 'llm', 'listen']);
      if (a.mcp) claim(a.mcp.listen, ['agents', i, 'mcp', 'listen']);
    });
    // one Toxiproxy proxy in front of two agents: a fault on one would act on both without saying so
    const named = new Map<string, number>();
    spec.agents.forEach((a, i) => {
      if (!a.proxy || !('toxiproxy' in a.proxy)) return;
      const key = `${a.proxy.toxiproxy.replace(/\/+$/, '')} ${a.proxy.name}`;
      const first = named.get(key);
      if (first === undefined) return void named.set(key, i);
      ctx.addIssue({
        code: 'custom',
        path: ['agents', i, 'proxy', 'name'],
        message: `proxy "${a.proxy.name}" on ${a.proxy.toxiproxy} is already the proxy of agents[${first}] (one agent per proxy, so a fault acts on the agent it names)`,
      });
    });
    if (spec.llm) claim(spec.llm.listen, ['llm', 'listen']);
    if (spec.mcp) claim(spec.mcp.listen, ['mcp', 'listen']);
    trialProblems(spec, ctx);
    const names = new Set<string>();
    spec.invariants?.forEach((inv, i) => {
      if (names.has(inv.name))
        ctx.addIssue({
          code: 'custom',
          path: ['invariants', i, 'name'],
          message: `duplicate invariant name ${inv.name}`,
        });
      names.add(inv.name);
    });
  });

export type ProcessTargetSpec = z.output<typeof processTargetSchema>;
export type ProcessTargetInput = z.input<typeof processTargetSchema>;
export type AgentSpec = ProcessTargetSpec['agents'][number];
export type ProbeSpec = AgentSpec['health'];
export type PidSpec = AgentSpec['pid'];
export type RequestSpec = z.output<typeof requestSchema>;
export type ExpectSpec = z.output<typeof expectSchema>;
export type LeaderSpec = NonNullable<ProcessTargetSpec['leader']>;
export type StartSpec = NonNullable<ProcessTargetSpec['start']>;

/** Probe timing defaults (DESIGN §9.1): every 100 ms, 1 s timeout, healthy after 2 consecutive passes. */
export const PROBE_DEFAULTS = { intervalMs: 100, timeoutMs: 1000, passes: 2 } as const;
export const DEFAULT_READY_TIMEOUT_MS = 30_000;
export const DEFAULT_GRACE_MS = 5000;
