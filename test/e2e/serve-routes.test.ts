/** `arena serve` end to end: every route group does real work behind the key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startServe, type ServeProcess } from './serve-helpers.js';

const KEY = 'routes-key';
let s: ServeProcess;
const call = (method: string, path: string, body?: string | object) =>
  http(s.url, method, path, { key: KEY, ...(body === undefined ? {} : { body }) });

beforeAll(async () => {
  s = await startServe([], { ARENA_API_KEY: KEY });
});
afterAll(async () => {
  await s?.stop();
});

describe('arena serve: route groups', () => {
  it('Arena: faults, 400 for an unknown agent, 422 for a fault that cannot apply, history, stats, metrics, score, flight records', async () => {
    const kill = await call('POST', '/arena/leader/kill');
    expect(kill.status).toBe(200);
    expect(kill.json.metadata.killed_leader_id).toMatch(/^agent-/);
    for (const verb of ['pause', 'resume', 'partition', 'memory-corrupt', 'mcp-disconnect', 'kill']) {
      expect((await call('POST', `/api/v1/arena/agent/agent-3/${verb}`)).status, verb).toBe(200);
    }
    expect((await call('POST', '/arena/agent/agent-2/slow', { duration: '300ms' })).json.success).toBe(true);
    expect((await call('POST', '/arena/agent/agent-2/tool-timeout', { duration: '300ms' })).status).toBe(200);
    expect(
      (await call('POST', '/arena/agent/agent-2/llm-failure', { error_type: 'timeout' })).json.action.metadata,
    ).toEqual({ error_type: 'timeout' });
    expect((await call('POST', '/arena/orchestrator/kill')).json.metadata.killed_orchestrator_id).toBe(
      'orchestrator-1',
    );
    expect((await call('POST', '/arena/node/recall/remove')).status).toBe(200);
    expect((await call('POST', '/arena/edge/remove', { from: 'plan', to: 'tool' })).status).toBe(200);
    // the killed leader may still be down (a kill of a down agent is refused): kill one known to be up
    const up = kill.json.metadata.killed_leader_id === 'agent-1' ? 'agent-2' : 'agent-1';
    expect((await call('POST', '/arena/actions', { type: 'kill_agent', target_id: up })).status).toBe(200);
    // an agent the target does not have: a bad request, refused before anything is injected
    const missing = await call('POST', '/arena/agent/agent-99/kill');
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('unknown_target');
    // a fault that cannot be applied right now: 422 with the Result
    const notPaused = await call('POST', '/arena/agent/orchestrator-2/resume');
    expect(notPaused.status).toBe(422);
    expect(notPaused.json.success).toBe(false);
    expect((await call('GET', '/arena/history')).json.results.length).toBeGreaterThanOrEqual(14);
    expect((await call('GET', '/api/v1/arena/stats')).json.failed).toBeGreaterThanOrEqual(1);
    expect((await call('GET', '/arena/metrics')).json.total).toBeGreaterThanOrEqual(14);
    const score = await call('GET', '/arena/score');
    expect(score.status).toBe(200);
    expect(score.json.grade).toMatch(/^(A\+|A|B|C|D|F)$/);
    const timeline = await call('GET', '/arena/flight/timeline?limit=3');
    expect(timeline.json.count).toBe(3);
    const diag = await call('GET', '/api/v1/arena/flight/diagnostics');
    expect(diag.json.count).toBeGreaterThanOrEqual(1);
    const record = await call('GET', `/api/v1/flight/records/${kill.json.action.id}`);
    expect(record.json.type).toBe('kill_leader');
    expect(
      (await call('GET', '/api/v1/flight/timeline?type=kill_agent')).json.records.every(
        (r: { type: string }) => r.type === 'kill_agent',
      ),
    ).toBe(true);
    expect((await call('GET', '/api/v1/flight/diagnostics')).status).toBe(200);
    const replay = await call('POST', '/api/v1/flight/replay', { ids: [notPaused.json.action.id] });
    expect(replay.json).toMatchObject({ replayed: 1, succeeded: 0 });
    expect((await call('GET', '/api/v1/flight/records/nope')).status).toBe(404);
  });

  it('Arena: scenario validate and run, survival with 409 while running', async () => {
    const invalid = await call(
      'POST',
      '/arena/scenario/validate',
      'name: x\nactions:\n  - action: { type: explode }\n',
    );
    expect(invalid.status).toBe(200);
    expect(invalid.json.valid).toBe(false);
    expect(invalid.json.errors[0].path).toContain('actions[0]');
    const scenario =
      'name: quick\nconfig: { warmup: 100ms, cooldown: 200ms }\nactions:\n  - label: k\n    action: { type: kill_agent, target_id: agent-2 }\n';
    expect((await call('POST', '/arena/scenario/validate', scenario)).json).toEqual({ valid: true, errors: [] });
    const run = await call('POST', '/api/v1/arena/scenario/run?seed=5', scenario);
    expect(run.status).toBe(200);
    expect(run.json).toMatchObject({ name: 'quick', seed: 5 });
    expect(run.json.score.score).toBeGreaterThan(0);
    expect((await call('POST', '/arena/scenario/run', 'name: [')).status).toBe(400);
    const started = await call('POST', '/arena/survival', {
      duration: '2s',
      interval: '200ms',
      seed: 1,
      actions: ['kill_agent'],
    });
    expect(started.status).toBe(202);
    expect(started.json.running).toBe(true);
    const again = await call('POST', '/arena/survival', { duration: '1s', interval: '100ms' });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('survival_running');
    expect((await call('GET', '/arena/survival/status')).json.running).toBe(true);
    expect((await call('POST', '/arena/scenario/run', scenario)).status).toBe(409);
    const stopped = await call('POST', '/arena/survival/stop');
    expect(stopped.status).toBe(200);
    expect(stopped.json.score).toBeDefined();
    expect((await call('GET', '/arena/survival/report')).json.seed).toBe(1);
    expect((await call('POST', '/arena/survival/stop')).status).toBe(409);
    expect((await call('POST', '/arena/survival', { duration: 'forever' })).status).toBe(400);
  });

  it('Agent, Memory, Retrieval, Eval, LLM', async () => {
    const agents = await call('GET', '/api/v1/agents');
    expect(agents.json.agents.map((a: { id: string }) => a.id)).toContain('orchestrator-2');
    const created = await call('POST', '/api/v1/agents', { id: 'helper', instructions: 'Be brief.' });
    expect(created.status).toBe(201);
    expect((await call('GET', '/api/v1/agents/helper')).json.agent.kind).toBe('assistant');
    const chat = await call('POST', '/api/v1/agents/helper/chat', { message: 'hello there' });
    expect(chat.json.answer.length).toBeGreaterThan(0);
    expect((await call('DELETE', '/api/v1/agents/agent-1')).status).toBe(400);
    expect((await call('DELETE', '/api/v1/agents/helper')).status).toBe(200);
    expect((await call('GET', '/api/v1/agents/helper')).status).toBe(404);
    expect((await call('POST', '/api/v1/agents', { id: 'agent-1' })).status).toBe(409);

    expect(
      (await call('POST', '/api/v1/memory/sessions', { session_id: 's1', metadata: { user: 'ana' } })).status,
    ).toBe(201);
    expect((await call('POST', '/api/v1/memory/sessions/s1/messages', { role: 'user', content: 'hi' })).status).toBe(
      201,
    );
    expect((await call('POST', '/api/v1/memory/sessions/s1/messages', { role: 'robot', content: 'hi' })).status).toBe(
      400,
    );
    expect(
      (await call('GET', '/api/v1/memory/sessions/s1/messages')).json.messages.map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual(['hi']);
    expect((await call('GET', '/api/v1/memory/sessions/s1')).json.session.message_count).toBe(1);
    expect(
      (await call('GET', '/api/v1/memory/sessions')).json.sessions.some((x: { id: string }) => x.id === 's1'),
    ).toBe(true);
    expect((await call('DELETE', '/api/v1/memory/sessions/s1')).status).toBe(200);
    expect((await call('GET', '/api/v1/memory/sessions/s1')).status).toBe(404);

    const docs = await call('POST', '/api/v1/retrieval/documents', {
      documents: [
        { id: 'a', text: 'leader election after a crash' },
        { id: 'b', text: 'memory checkpoints' },
      ],
    });
    expect(docs.status).toBe(201);
    const hits = await call('POST', '/api/v1/retrieval/search', { query: 'who wins the election?', top_k: 1 });
    expect(hits.json.results.map((h: { id: string }) => h.id)).toEqual(['a']);
    expect((await call('GET', '/api/v1/retrieval/documents')).json.documents).toHaveLength(2);
    expect((await call('GET', '/api/v1/retrieval/documents/b')).json.document.text).toBe('memory checkpoints');
    expect((await call('DELETE', '/api/v1/retrieval/documents/b')).status).toBe(200);

    expect((await call('GET', '/api/v1/eval/evaluators')).json.evaluators.length).toBeGreaterThanOrEqual(4);
    const ev = await call('POST', '/api/v1/eval/evaluate', {
      evaluators: ['contains', 'length'],
      output: 'Paris is the capital',
      expected: 'Paris',
      options: { max: 100 },
    });
    expect(ev.json.passed).toBe(true);
    expect((await call('POST', '/api/v1/eval/evaluate', { evaluator: 'nope', output: 'x' })).status).toBe(400);

    const chatLlm = await call('POST', '/api/v1/llm/chat', { messages: [{ role: 'user', content: 'hello' }] });
    expect(chatLlm.json.text.length).toBeGreaterThan(0);
    expect(
      (await call('POST', '/api/v1/llm/generate', { prompt: 'say hi', max_tokens: 3 })).json.usage.completion_tokens,
    ).toBeLessThanOrEqual(3);
    expect((await call('GET', '/api/v1/llm/stats')).json.calls).toBeGreaterThanOrEqual(2);
    expect((await call('POST', '/api/v1/llm/chat', { messages: [] })).status).toBe(400);
  });

  it('Runtime and Workflow', async () => {
    const stats = await call('GET', '/api/v1/runtime/stats');
    expect(stats.json.running).toBe(true);
    expect(stats.json.workload.requests).toBeGreaterThan(0);
    expect((await call('GET', '/api/v1/runtime/agents/agent-2')).json.id).toBe('agent-2');
    expect((await call('GET', '/api/v1/runtime/agents/zzz')).status).toBe(404);
    const strategy = await call('GET', '/api/v1/runtime/strategy');
    expect(strategy.json.strategy).toBeTypeOf('object');
    const updated = await call('POST', '/api/v1/runtime/strategy', { supervisor: { enabled: false } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.strategy.supervisor.enabled).toBe(false);
    expect((await call('POST', '/api/v1/runtime/strategy', { nonsense: 1 })).status).toBe(400);
    const tools = await call('GET', '/api/v1/runtime/mcp/tools');
    expect(tools.json.tools.length).toBeGreaterThan(0);
    const toolName = tools.json.tools[0].name;
    expect((await call('POST', `/api/v1/runtime/mcp/tools/${toolName}/call`, { arguments: {} })).status).toBeLessThan(
      500,
    );
    expect((await call('POST', '/api/v1/runtime/stop')).json.running).toBe(false);
    expect((await call('POST', '/api/v1/runtime/start')).json.running).toBe(true);

    expect((await call('GET', '/api/v1/workflows')).json.workflows.map((w: { id: string }) => w.id)).toContain(
      'answer-question',
    );
    expect((await call('GET', '/api/v1/workflows/answer-question')).json.workflow.steps).toHaveLength(3);
    const run = await call('POST', '/api/v1/workflows/answer-question/execute', {
      input: { question: 'what is a leader?' },
    });
    expect(run.json.status).toBe('completed');
    expect((await call('GET', '/api/v1/workflows/answer-question/executions')).json.executions).toHaveLength(1);
    const reg = await call('POST', '/api/v1/workflows', {
      id: 'echo-twice',
      steps: [
        { id: 'a', agent_type: 'echo' },
        { id: 'b', agent_type: 'echo', depends_on: ['a'] },
      ],
    });
    expect(reg.status, reg.text).toBe(201);
    expect((await call('POST', '/api/v1/workflows/echo-twice/execute', { input: 1 })).json.status).toBe('completed');
    expect(
      (await call('POST', '/api/v1/workflows', { id: 'bad', steps: [{ id: 'a', agent_type: 'nope' }] })).status,
    ).toBe(400);
    expect((await call('POST', '/api/v1/workflows/nope/execute', {})).status).toBe(404);
  });

  it('Evolution and RuntimeEvolution: status, a background search run, 409 while it runs, one run', async () => {
    for (const group of ['evolution', 'runtime-evolution']) {
      const status = await call('GET', `/api/v1/${group}/status`);
      expect(status.status, status.text).toBe(200);
      const started = await call('POST', `/api/v1/${group}/runs`, {
        generations: 1,
        population: 2,
        elitism: 0,
        duration: '150ms',
        interval: '50ms',
        seed: 2,
      });
      expect(started.status, started.text).toBe(201);
      expect(started.json.status).toBe('running');
      expect((await call('POST', `/api/v1/${group}/runs`, { generations: 1, population: 2, elitism: 0 })).status).toBe(
        409,
      );
      let run = started.json;
      for (let i = 0; i < 100 && run.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 100));
        run = (await call('GET', `/api/v1/${group}/runs/${started.json.id}`)).json;
      }
      expect(run.status).toBe('completed');
      expect(run.best.fitness).toBeGreaterThan(0);
      expect((await call('GET', `/api/v1/${group}/runs`)).json.runs).toHaveLength(1);
      expect((await call('GET', `/api/v1/${group}/runs/nope`)).status).toBe(404);
      expect((await call('POST', `/api/v1/${group}/runs`, { generations: 0 })).status).toBe(400);
    }
    const rt = await call('GET', '/api/v1/runtime-evolution/status');
    expect(rt.json.runtime).toBeDefined();
  });
});
