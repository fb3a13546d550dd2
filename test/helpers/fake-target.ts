/**
 * A small but honest in-memory Target for arena tests. Faults really change
 * its state; its workload, health and invariants are computed from that
 * state; with `recovery: true` a supervisor heals it after fixed delays, with
 * `recovery: false` only timed faults expire. Same names as the embedded target.
 */
import { NotFoundError, RuntimeError } from '../../src/shared/errors.js';
import { systemClock, type Clock, type TimerHandle } from '../../src/shared/clock.js';
import type {
  ActiveFault,
  AgentInfo,
  AgentRole,
  DAGEdge,
  FaultOptions,
  HealthScope,
  InvariantCheck,
  Target,
  WorkloadCounters,
} from '../../src/arena/providers.js';

export interface FakeTargetOptions {
  clock?: Clock;
  recovery?: boolean;
  /** supervisor delays, ms */
  restartMs?: number;
  electionMs?: number;
  takeoverMs?: number;
  restoreMs?: number;
  reconnectMs?: number;
  dagRestoreMs?: number;
  /** one request per tick */
  workIntervalMs?: number;
  /** a task slower than this fails */
  requestTimeoutMs?: number;
}

interface FakeAgent {
  id: string;
  role: AgentRole;
  status: AgentInfo['status'];
  restarts: number;
  slowMs: number;
  partitioned: boolean;
  toolHang: boolean;
  memoryOk: boolean;
  mcpConnected: boolean;
  llmFailing: boolean;
}

const NODES = ['fetch', 'plan', 'tool', 'recall', 'answer'];
const EDGES: DAGEdge[] = [
  { from: 'fetch', to: 'plan' },
  { from: 'plan', to: 'tool' },
  { from: 'plan', to: 'recall' },
  { from: 'tool', to: 'answer' },
  { from: 'recall', to: 'answer' },
];

export type FakeTarget = Target & {
  agent(id: string): FakeAgent;
  counters: WorkloadCounters;
  nodes: string[];
  edges: DAGEdge[];
  started: boolean;
  revertCalls: number;
};

export function createFakeTarget(options: FakeTargetOptions = {}): FakeTarget {
  const clock = options.clock ?? systemClock;
  const recovery = options.recovery ?? true;
  const o = {
    restartMs: 30,
    electionMs: 20,
    takeoverMs: 20,
    restoreMs: 20,
    reconnectMs: 20,
    dagRestoreMs: 30,
    workIntervalMs: 4,
    requestTimeoutMs: 50,
    ...options,
  };
  const agents = new Map<string, FakeAgent>();
  const mk = (id: string, role: AgentRole): FakeAgent => ({
    id,
    role,
    status: 'running',
    restarts: 0,
    slowMs: 0,
    partitioned: false,
    toolHang: false,
    memoryOk: true,
    mcpConnected: true,
    llmFailing: false,
  });
  for (const a of [
    mk('agent-1', 'leader'),
    mk('agent-2', 'worker'),
    mk('agent-3', 'worker'),
    mk('orchestrator-1', 'orchestrator'),
    mk('orchestrator-2', 'standby'),
  ]) {
    agents.set(a.id, a);
  }
  let nodes = [...NODES];
  let edges = EDGES.map((e) => ({ ...e }));
  const counters: WorkloadCounters = { requests: 0, succeeded: 0, failed: 0 };
  const faults = new Map<string, { fault: ActiveFault; revert: () => void; timer?: TimerHandle }>();
  const timers = new Set<TimerHandle>();
  let faultSeq = 0;
  let rr = 0;
  let workTimer: TimerHandle | undefined;
  let started = false;

  const later = (ms: number, fn: () => void) => {
    const h = clock.setTimer(ms, () => {
      timers.delete(h);
      fn();
    });
    timers.add(h);
  };
  const get = (id: string) => {
    const a = agents.get(id);
    if (!a) throw new NotFoundError(`unknown agent "${id}"`);
    return a;
  };
  const addFault = (kind: string, target: string, revert: () => void, opts?: FaultOptions) => {
    const id = `f${++faultSeq}`;
    const now = clock.now();
    const fault: ActiveFault = {
      id,
      kind,
      target,
      started_at_ms: now,
      ends_at_ms: opts?.durationMs !== undefined ? now + opts.durationMs : undefined,
    };
    const entry: { fault: ActiveFault; revert: () => void; timer?: TimerHandle } = { fault, revert };
    if (opts?.durationMs !== undefined) entry.timer = clock.setTimer(opts.durationMs, () => endFault(id));
    faults.set(id, entry);
    return { fault_id: id };
  };
  const endFault = (id: string) => {
    const f = faults.get(id);
    if (!f) return;
    faults.delete(id);
    f.timer?.cancel();
    f.revert();
  };
  const endFaults = (kind: string, target: string) => {
    for (const [id, f] of faults) if (f.fault.kind === kind && f.fault.target === target) endFault(id);
  };
  const isWorker = (a: FakeAgent) => a.role === 'leader' || a.role === 'worker';
  const running = (a: FakeAgent) => a.status === 'running';

  function elect() {
    if ([...agents.values()].some((a) => a.role === 'leader' && running(a))) return;
    const next = [...agents.values()]
      .filter((a) => isWorker(a) && running(a))
      .sort((a, b) => a.id.localeCompare(b.id))[0];
    if (next) next.role = 'leader';
  }

  const runtime: Target['runtime'] = {
    listAgents: async () =>
      [...agents.values()].map((a) => ({ id: a.id, role: a.role, status: a.status, restarts: a.restarts })),
    async stopAgent(id) {
      const a = get(id);
      if (a.status === 'stopped') throw new RuntimeError(`agent "${id}" is already stopped`);
      const wasLeader = a.role === 'leader';
      const wasOrchestrator = a.role === 'orchestrator';
      a.status = 'stopped';
      if (wasLeader) a.role = 'worker';
      if (!recovery) return {};
      later(o.restartMs, () => {
        a.status = 'running';
        a.restarts += 1;
        elect();
      });
      if (wasLeader) later(o.electionMs, elect);
      if (wasOrchestrator) {
        later(o.takeoverMs, () => {
          const standby = [...agents.values()].find((x) => x.role === 'standby' && running(x));
          if (standby) {
            standby.role = 'orchestrator';
            a.role = 'standby';
          }
        });
      }
      return {};
    },
    async pauseAgent(id, opts) {
      const a = get(id);
      if (a.status !== 'running') throw new RuntimeError(`agent "${id}" is ${a.status}, cannot pause`);
      a.status = 'paused';
      return addFault('pause', id, () => a.status === 'paused' && (a.status = 'running'), opts);
    },
    async resumeAgent(id) {
      const a = get(id);
      if (a.status !== 'paused') throw new RuntimeError(`agent "${id}" is not paused`);
      endFaults('pause', id);
      a.status = 'running';
      return {};
    },
    async slowAgent(id, delayMs, opts) {
      const a = get(id);
      a.slowMs = delayMs;
      return addFault('slow', id, () => (a.slowMs = 0), opts);
    },
    async partitionNetwork(id, opts) {
      const a = get(id);
      a.partitioned = true;
      return addFault('partition', id, () => (a.partitioned = false), opts);
    },
    async toolTimeout(id, opts) {
      const a = get(id);
      a.toolHang = true;
      return addFault('tool_timeout', id, () => (a.toolHang = false), opts);
    },
    async corruptMemory(id) {
      const a = get(id);
      a.memoryOk = false;
      if (recovery) later(o.restoreMs, () => (a.memoryOk = true));
      return {};
    },
    async disconnectMcp(id) {
      const a = get(id);
      if (!a.mcpConnected) throw new RuntimeError(`agent "${id}" has no live MCP session`);
      a.mcpConnected = false;
      if (recovery) later(o.reconnectMs, () => (a.mcpConnected = true));
      return {};
    },
    async injectLlmFailure(id, errorType, opts) {
      const a = get(id);
      a.llmFailing = true;
      return { ...addFault(`llm_failure:${errorType}`, id, () => (a.llmFailing = false), opts) };
    },
    activeFaults: async () => [...faults.values()].map((f) => ({ ...f.fault })),
    async revertFault(id) {
      if (!faults.has(id)) return false;
      endFault(id);
      return true;
    },
    async revertAll() {
      target.revertCalls += 1;
      for (const id of [...faults.keys()]) endFault(id);
    },
  };

  const dagRestore = () => {
    if (recovery)
      later(o.dagRestoreMs, () => {
        nodes = [...NODES];
        edges = EDGES.map((e) => ({ ...e }));
      });
  };
  const dag: NonNullable<Target['dag']> = {
    listNodes: async () => [...nodes],
    listEdges: async () => edges.map((e) => ({ ...e })),
    async removeNode(id) {
      if (!nodes.includes(id)) throw new NotFoundError(`unknown DAG node "${id}"`);
      nodes = nodes.filter((n) => n !== id);
      edges = edges.filter((e) => e.from !== id && e.to !== id);
      dagRestore();
      return {};
    },
    async removeEdge(from, to) {
      if (!edges.some((e) => e.from === from && e.to === to))
        throw new NotFoundError(`unknown DAG edge "${from}" → "${to}"`);
      edges = edges.filter((e) => !(e.from === from && e.to === to));
      dagRestore();
      return {};
    },
  };

  const agentProblems = (a: FakeAgent): string[] => {
    const p: string[] = [];
    if (a.status !== 'running') p.push(`${a.id} is ${a.status}`);
    if (!a.memoryOk) p.push(`${a.id} memory corrupt`);
    if (!a.mcpConnected) p.push(`${a.id} MCP disconnected`);
    if (a.llmFailing && !recovery) p.push(`${a.id} LLM failing`);
    if (a.partitioned) p.push(`${a.id} partitioned`);
    return p;
  };
  const dagProblems = () => {
    const p = NODES.filter((n) => !nodes.includes(n)).map((n) => `node ${n} missing`);
    for (const e of EDGES)
      if (!edges.some((x) => x.from === e.from && x.to === e.to)) p.push(`edge ${e.from}→${e.to} missing`);
    return p;
  };
  const roleProblems = (role: AgentRole) =>
    [...agents.values()].some((a) => a.role === role && running(a)) ? [] : [`no running ${role}`];

  const serves = (a: FakeAgent) =>
    running(a) &&
    !a.partitioned &&
    a.memoryOk &&
    a.mcpConnected &&
    !a.toolHang &&
    (!a.llmFailing || recovery) &&
    a.slowMs <= o.requestTimeoutMs;

  function tick() {
    counters.requests += 1;
    const workers = [...agents.values()].filter(isWorker).sort((a, b) => a.id.localeCompare(b.id));
    const chosen = workers[rr++ % workers.length]!;
    const worker = serves(chosen) ? chosen : recovery ? workers.find(serves) : undefined;
    const ok =
      worker !== undefined &&
      roleProblems('orchestrator').length === 0 &&
      roleProblems('leader').length === 0 &&
      dagProblems().length === 0;
    if (ok) counters.succeeded += 1;
    else counters.failed += 1;
    if (started) workTimer = clock.setTimer(o.workIntervalMs, tick);
  }

  const target: FakeTarget = {
    kind: 'embedded',
    name: 'fake',
    runtime,
    dag,
    observer: {
      async health(scope: HealthScope) {
        let problems: string[];
        switch (scope.kind) {
          case 'agent':
            problems = agentProblems(get(scope.id));
            break;
          case 'leader':
            problems = roleProblems('leader');
            break;
          case 'orchestrator':
            problems = roleProblems('orchestrator');
            break;
          case 'dag':
            problems = dagProblems();
            break;
          default:
            problems = [
              ...[...agents.values()].flatMap(agentProblems),
              ...roleProblems('leader'),
              ...roleProblems('orchestrator'),
              ...dagProblems(),
            ];
        }
        return { healthy: problems.length === 0, problems };
      },
      workload: async () => ({ ...counters }),
      async checkInvariants(): Promise<InvariantCheck[]> {
        const checks: InvariantCheck[] = [...agents.values()].map((a) => ({
          name: `memory integrity ${a.id}`,
          passed: a.memoryOk,
          detail: a.memoryOk ? undefined : 'checksum mismatch',
        }));
        const d = dagProblems();
        checks.push({ name: 'workflow DAG intact', passed: d.length === 0, detail: d.join(', ') || undefined });
        return checks;
      },
    },
    async start() {
      started = true;
      workTimer = clock.setTimer(o.workIntervalMs, tick);
    },
    async stop() {
      started = false;
      workTimer?.cancel();
      for (const t of timers) t.cancel();
      timers.clear();
    },
    // it has no tools whose results a tool_fault could change
    unsupportedFaults: () => ({ tool_fault: 'the fake target has no tools' }),
    describe: async () => ({
      name: 'fake',
      agents: await runtime.listAgents(),
      dag: { nodes: [...nodes], edges: await dag.listEdges() },
      strategy: { recovery },
    }),
    agent: get,
    counters,
    get nodes() {
      return nodes;
    },
    get edges() {
      return edges;
    },
    get started() {
      return started;
    },
    revertCalls: 0,
  };
  return target;
}
