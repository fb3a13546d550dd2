/**
 * Issue 11: routes acted on bodies they did not understand. Every route
 * validates its whole body and answers 400 naming the field before it acts.
 */
import { describe, expect, it } from 'vitest';
import { call, serveRootForTest, stateOf } from './served-root.js';

describe('every route validates its whole body before it acts', () => {
  it('flight replay with garbage, null or {} replays nothing; it needs an explicit selection', async () => {
    const { url, root } = await serveRootForTest();
    expect((await call(url, 'POST', '/arena/agent/agent-2/pause', { duration: '30s' })).status).toBe(200);
    expect((await call(url, 'POST', '/arena/agent/agent-1/resume')).status).toBe(422);
    const before = await stateOf(root);
    for (const [body, field] of [
      ['{"a":1}', 'body.a: unknown key'],
      ['null', 'body must be a JSON object, got null'],
      ['[]', 'body must be a JSON object, got an array'],
      ['{}', 'say what to replay'],
      ['{"all":false}', 'body.all'],
      ['{"ids":"x"}', 'body.ids'],
      ['{"limit":0}', 'body.limit'],
    ] as const) {
      const r = await call(url, 'POST', '/api/v1/flight/replay', body);
      expect(r.status, body).toBe(400);
      expect(r.json.error, body).toContain(field);
    }
    expect((await call(url, 'POST', '/api/v1/flight/replay')).status).toBe(400);
    expect(await stateOf(root)).toBe(before);
    const replay = await call(url, 'POST', '/api/v1/flight/replay', { failed_only: true });
    expect(replay.status, replay.text).toBe(200);
    expect(replay.json).toMatchObject({ replayed: 1, succeeded: 0 });
  });

  it('unknown keys, wrong types and the wrong root type are a 400 naming the field, on every group', async () => {
    const { url, root } = await serveRootForTest();
    const before = await stateOf(root);
    const cases: Array<[string, object, string]> = [
      ['/api/v1/agents', { id: 'a1', colour: 'red' }, 'body.colour: unknown key'],
      ['/api/v1/agents', { id: 5 }, 'body.id'],
      ['/api/v1/agents/agent-1/chat', { message: 'hi', extra: 1 }, 'body.extra'],
      ['/api/v1/memory/sessions', { metadata: [] }, 'body.metadata'],
      ['/api/v1/memory/sessions', { session: 's1' }, 'body.session: unknown key'],
      ['/api/v1/retrieval/documents', { documents: [{ text: 'x', tags: [] }] }, 'body.documents[0].tags: unknown key'],
      ['/api/v1/retrieval/documents', { text: 'x', meta: {} }, 'body.meta'],
      ['/api/v1/retrieval/search', { query: 'x', top_k: '3' }, 'body.top_k'],
      [
        '/api/v1/llm/chat',
        { messages: [{ role: 'user', content: 'x', name: 'n' }] },
        'body.messages[0].name: unknown key',
      ],
      ['/api/v1/llm/generate', { prompt: 'x', temperature: 1 }, 'body.temperature'],
      [
        '/api/v1/eval/evaluate',
        { evaluator: 'contains', output: 'x', expected: 'x', options: { ignorecase: true } },
        'body.options.ignorecase: unknown key',
      ],
      [
        '/api/v1/eval/evaluate',
        { evaluator: 'regex', output: 'x', expected: 'x', options: { flags: 'gy' } },
        'body.options.flags',
      ],
      ['/api/v1/stream', { query: 'hi', options: { topk: 3 } }, 'body.options.topk: unknown key'],
      ['/api/v1/stream', { query: 'hi', options: { top_k: 99 } }, 'body.options.top_k'],
      ['/api/v1/workflows/answer-question/execute', { inputs: {} }, 'body.inputs: unknown key'],
      ['/api/v1/runtime/mcp/tools/echo/call', { args: {} }, 'body.args: unknown key'],
      ['/api/v1/runtime/strategy', [], 'body must be a JSON object'],
      ['/api/v1/evolution/runs', { generation: 1 }, 'generation'],
      ['/arena/agent/agent-1/slow', { duration: '25h' }, 'body.duration'],
      ['/arena/agent/agent-1/llm-failure', { error_type: 'teapot' }, 'body.error_type'],
      ['/arena/agent/agent-1/kill', { force: true }, 'body.force: unknown key'],
      ['/api/v1/arena/edge/remove', { from: 'tool', to: 'answer', why: 'x' }, 'body.why'],
      ['/arena/survival', { duration: '1s', seeds: 1 }, 'body.seeds: unknown key'],
      ['/arena/survival', { actions: ['kill_agnet'] }, 'body.actions'],
      ['/arena/actions', { type: 'kill_agent', target_id: 'agent-1', force: true }, 'force'],
    ];
    for (const [path, body, field] of cases) {
      const r = await call(url, 'POST', path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text}`).toBe(400);
      expect(r.json.error, path).toContain(field);
      expect(r.json.code).toBeTypeOf('string');
    }
    expect(await stateOf(root)).toBe(before);
  });

  it('/api/v1/stream refuses bad options with a 400 before the event stream opens, like a bad query', async () => {
    const { url } = await serveRootForTest();
    const bad = await call(url, 'POST', '/api/v1/stream', { query: 'hi', options: { remember: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/json');
    expect(bad.json.error).toContain('body.options.remember');
  });
});
