/**
 * The steady-state workload: runs of the steady-state workflow are sent to the
 * active orchestrator, which executes them with the workflow engine, sending
 * each step as a task to a worker (the `plan` step to the elected leader).
 * Every message crosses the cluster network, so partitions, pauses, kills and
 * slow agents all show in the results.
 */
import { RuntimeError, errorMessage, isArenaError } from '../shared/errors.js';
import { AgentRegistry, executeWorkflow, type StepAgent, type StepContext } from '../workflow/index.js';
import type { Agent } from './agent.js';
import { isAlive, send, type Cluster } from './cluster.js';
import { currentLeader, leaderServing } from './election.js';
import type { LiveDag } from './dag.js';
import type { MarkerBook } from '../protocol/markers.js';
import { evaluateExpression } from './tools/expression.js';
import type { Ledger, Write } from './ledger.js';
import { ensureIntegrity, journalWrite } from './maintenance.js';
import {
  expectedOutput,
  fetchText,
  memoryKey,
  runInput,
  sameValue,
  type RunInput,
  type RunOutput,
} from './steady-state.js';

export class NoLeaderError extends RuntimeError {
  constructor(detail: string) {
    super(`no leader to plan: ${detail}`, { code: 'no_leader' });
  }
}

interface RunState {
  applied?: { agentId: string; key: string; write: Write };
}

export interface Workload {
  /** submits one run now; resolves when it has finished (never rejects) */
  submit(): Promise<boolean>;
  /** aborts every run in flight */
  abortAll(): void;
}

export function createWorkload(cluster: Cluster, dag: LiveDag, ledger: Ledger, markers?: MarkerBook): Workload {
  let next = 1;
  let roundRobin = 0;
  const inFlight = new Set<AbortController>();

  /** the worker a run is assigned to; with failover on, only workers whose heartbeats arrive */
  const pickWorker = (avoid?: Agent): Agent => {
    const pool = cluster.strategy.failover.enabled
      ? cluster.workers.filter((w) => w !== avoid && isAlive(cluster, w))
      : cluster.workers;
    if (pool.length === 0) throw new RuntimeError('no live worker to dispatch to', { code: 'no_worker' });
    return pool[roundRobin++ % pool.length]!;
  };

  const stepAgents = (orchestrator: Agent, input: RunInput, first: Agent, state: RunState) => {
    let assigned = first;
    // the assigned worker's tools gave a result its agent refused: its tool backend is not to be trusted now
    let isDistrusted = false;
    const onWorker = (fn: (agent: Agent, ctx: StepContext, signal: AbortSignal) => Promise<unknown>): StepAgent => ({
      async execute(ctx) {
        // a retry goes elsewhere when the assigned worker refused the task (it is down), its heartbeats stopped,
        // or its agent refused what its tools returned
        if (
          ctx.attempt > 1 &&
          cluster.strategy.failover.enabled &&
          (assigned.state !== 'running' || !isAlive(cluster, assigned) || isDistrusted)
        ) {
          assigned = pickWorker(assigned);
        }
        isDistrusted = false;
        const worker = assigned;
        try {
          return await send(orchestrator, worker, (signal) => fn(worker, ctx, signal), ctx.signal);
        } catch (error) {
          isDistrusted = isArenaError(error, 'tool_result_invalid');
          throw error;
        }
      },
    });
    const registry = new AgentRegistry();
    const built = new Set<string>();
    // replace_node: a fresh step agent is a freshly chosen worker
    const replaceable = (type: string, fn: Parameters<typeof onWorker>[0]) => () => {
      if (built.has(type)) assigned = pickWorker();
      built.add(type);
      return onWorker(fn);
    };
    registry.register(
      'fetch',
      replaceable('fetch', (agent, _ctx, signal) => fetchStep(agent, input, signal)),
    );
    registry.register('plan', () => ({
      execute(ctx) {
        const leader = currentLeader(cluster);
        if (!leader || !leaderServing(cluster))
          throw new NoLeaderError(leader ? `${leader.id} holds no valid lease or is unreachable` : 'none elected');
        return send(orchestrator, leader, (signal) => planStep(leader, input, ctx, signal), ctx.signal);
      },
    }));
    registry.register(
      'tool',
      replaceable('tool', (agent, ctx, signal) => toolStep(agent, input, ctx, signal)),
    );
    registry.register(
      'recall',
      replaceable('recall', (agent) => recallStep(agent)),
    );
    registry.register(
      'answer',
      replaceable('answer', (agent, ctx, signal) => answerStep(agent, input, ctx, signal, state)),
    );
    return registry;
  };

  const recallStep = async (agent: Agent) => {
    // a checked read: with integrity checking on, damage is repaired before it can be read
    ensureIntegrity(cluster, agent);
    const last = ledger.lastApplied(agent.id);
    if (!last) return { verified: true, recalled: null };
    const value = agent.memory.get(last.key);
    return { verified: sameValue(value, last.write.value), recalled: last.write.run };
  };

  const answerStep = async (
    agent: Agent,
    input: RunInput,
    ctx: StepContext,
    signal: AbortSignal,
    state: RunState,
  ): Promise<RunOutput> => {
    const tool = need<{ capital: string; product: number; doc: string }>(ctx, 'tool');
    const recall = need<{ verified: boolean }>(ctx, 'recall');
    const said = `${tool.capital}|${tool.product}|${tool.doc}`;
    const prompt = `echo: ${said}`;
    if (markers?.isTracking) markers.scan(prompt, 'entered_context');
    const response = await agent.subsystems.llm.complete({
      messages: [{ role: 'user', content: prompt }],
      signal,
      // a careful agent checks the model repeated what it was given, as it asked
      check: (text) => (text === said ? undefined : `the model did not repeat its input: ${JSON.stringify(text)}`),
    });
    signal.throwIfAborted();
    const output: RunOutput = { run: input.run, answer: response.text, recall_verified: recall.verified };
    if (markers?.isTracking) markers.scan(output.answer, 'reached_user');
    // idempotent effect: a retried or late answer never writes twice
    if (!ledger.hasEffect(input.run)) {
      const key = memoryKey(input.run);
      const value = { run: input.run, answer: output.answer };
      agent.memory.set(key, value);
      journalWrite(agent, key, value);
      ledger.recordEffect(input.run);
      ledger.applied(agent.id, key, { run: input.run, value });
      state.applied = { agentId: agent.id, key, write: { run: input.run, value } };
    }
    return output;
  };

  const submit = async (): Promise<boolean> => {
    const run = next++;
    const input = runInput(run);
    const expected = expectedOutput(input);
    const started = cluster.clock.now();
    const controller = new AbortController();
    inFlight.add(controller);
    const timeoutMs = cluster.strategy.workload.run_timeout_ms;
    const timer = cluster.clock.setTimer(timeoutMs, () =>
      controller.abort(new RuntimeError(`run ${run} timed out after ${timeoutMs}ms`, { code: 'run_timeout' })),
    );
    ledger.started(run);
    let worker: Agent | undefined;
    const state: RunState = {};
    try {
      const orchestrator = cluster.activeOrchestratorId ? cluster.agents.get(cluster.activeOrchestratorId) : undefined;
      if (!orchestrator) throw new RuntimeError('no active orchestrator', { code: 'no_orchestrator' });
      const result = await send(
        undefined,
        orchestrator,
        async (signal) => {
          worker = pickWorker();
          const registry = stepAgents(orchestrator, input, worker, state);
          return executeWorkflow(dag.current(), {
            registry,
            input,
            signal,
            clock: cluster.clock,
            defaultStepTimeoutMs: timeoutMs,
            defaultRetries: cluster.strategy.dag.step_retries,
            executionId: `run-${run}`,
          });
        },
        controller.signal,
      );
      if (result.status === 'completed') {
        const mismatch = !sameValue(result.output, expected);
        // the orchestrator got the answer back: the write is acknowledged
        if (state.applied) ledger.acknowledged(state.applied.agentId, state.applied.key, state.applied.write);
        ledger.finished({
          run,
          ok: !mismatch,
          status: result.status,
          worker: worker?.id,
          mismatch,
          duration_ms: cluster.clock.now() - started,
          finished_at_ms: cluster.clock.now(),
          ...(mismatch
            ? { error: `output ${JSON.stringify(result.output)} differs from the expected ${JSON.stringify(expected)}` }
            : {}),
        });
        return !mismatch;
      }
      throw new RuntimeError(result.error ?? `run ${result.status}`, { code: 'run_failed' });
    } catch (error) {
      ledger.finished({
        run,
        ok: false,
        status: 'failed',
        worker: worker?.id,
        mismatch: false,
        error: errorMessage(error),
        duration_ms: cluster.clock.now() - started,
        finished_at_ms: cluster.clock.now(),
      });
      return false;
    } finally {
      timer.cancel();
      inFlight.delete(controller);
    }
  };

  return {
    submit,
    abortAll() {
      for (const controller of inFlight)
        controller.abort(new RuntimeError('runtime stopped', { code: 'runtime_stopped' }));
    },
  };
}

function need<T>(ctx: StepContext, step: string): T {
  const value = ctx.inputs[step];
  if (value === undefined)
    throw new RuntimeError(`step ${ctx.step.id} is missing its input from "${step}" (the DAG lost a node or an edge)`, {
      code: 'missing_input',
    });
  return value as T;
}

async function fetchStep(agent: Agent, input: RunInput, signal: AbortSignal): Promise<{ doc: string }> {
  signal.throwIfAborted();
  const result = await agent.subsystems.mcp.callTool('echo', { message: fetchText(input.country) });
  if (result.isError) throw new RuntimeError(`fetch: MCP echo failed: ${result.text}`, { code: 'mcp_error' });
  return { doc: result.text };
}

async function planStep(agent: Agent, input: RunInput, ctx: StepContext, signal: AbortSignal) {
  const fetched = need<{ doc: string }>(ctx, 'fetch');
  const expression = `${input.a} * ${input.b}`;
  const response = await agent.subsystems.llm.complete({
    messages: [{ role: 'user', content: `compute ${expression}` }],
    signal,
    // a careful agent checks the model's arithmetic with its calculator before it plans on it
    check: (text) => {
      const said = Number(/The answer is (-?[\d.e+]+)/.exec(text)?.[1]);
      return said === evaluateExpression(expression)
        ? undefined
        : `the model's product ${JSON.stringify(text)} is wrong`;
    },
  });
  const product = Number(/The answer is (-?[\d.e+]+)/.exec(response.text)?.[1]);
  if (!Number.isFinite(product))
    throw new RuntimeError(`plan: the model gave no number: ${JSON.stringify(response.text)}`, { code: 'bad_plan' });
  return { product, doc: fetched.doc, planned_by: agent.id };
}

async function toolStep(agent: Agent, input: RunInput, ctx: StepContext, signal: AbortSignal) {
  const plan = need<{ product: number; doc: string }>(ctx, 'plan');
  const capital = await agent.subsystems.tools.call('lookup', { key: input.country }, signal);
  return { capital: String(capital), product: plan.product, doc: plan.doc };
}
