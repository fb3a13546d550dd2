import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/shared/clock.js';
import { createConversationMemory } from '../../../../src/runtime/services/conversation-memory.js';
import { createRetrievalIndex, tokenize } from '../../../../src/runtime/services/retrieval.js';
import { createEvalRunner } from '../../../../src/runtime/services/eval.js';

describe('conversation memory', () => {
  it('keeps sessions and messages in order, capped per session', async () => {
    const clock = new ManualClock();
    const memory = createConversationMemory({ clock, maxMessagesPerSession: 3 });
    const s = memory.createSession({ metadata: { user: 'ana' } });
    expect(s.id).toBe('session-1');
    for (let i = 1; i <= 5; i++) {
      await clock.advance(1000);
      memory.addMessage(s.id, { role: 'user', content: `m${i}` });
    }
    expect(memory.messages(s.id).map((m) => m.content)).toEqual(['m3', 'm4', 'm5']);
    expect(memory.messages(s.id, 1).map((m) => m.content)).toEqual(['m5']);
    const got = memory.getSession(s.id);
    expect(got.message_count).toBe(3);
    expect(got.updated_at).toBe(new Date(Date.UTC(2026, 0, 1) + 5000).toISOString());
    expect(got.metadata).toEqual({ user: 'ana' });
  });

  it('names what is wrong: unknown session, duplicate or invalid id', () => {
    const memory = createConversationMemory();
    memory.createSession({ id: 'a' });
    expect(() => memory.createSession({ id: 'a' })).toThrow(/already exists/);
    expect(() => memory.createSession({ id: 'bad id!' })).toThrow(/invalid/);
    expect(() => memory.addMessage('nope', { role: 'user', content: 'x' })).toThrow(/session "nope" not found/);
    memory.deleteSession('a');
    expect(memory.size).toBe(0);
    expect(() => memory.getSession('a')).toThrow(/not found/);
  });
});

describe('retrieval (BM25)', () => {
  const corpus = [
    { id: 'leader', text: 'Leader election picks a new leader when the leader agent dies.' },
    { id: 'memory', text: 'Memory checkpoints restore corrupted agent memory.' },
    { id: 'mcp', text: 'The MCP session reconnects with exponential backoff.' },
    { id: 'tools', text: 'Tool calls time out and are retried.' },
  ];

  it('ranks the document that matches the query best first and leaves out non-matching ones', () => {
    const index = createRetrievalIndex();
    index.add(corpus);
    const hits = index.search('who becomes leader after the leader dies?');
    expect(hits[0]!.id).toBe('leader');
    expect(hits.map((h) => h.id)).not.toContain('mcp');
    const mem = index.search('corrupted memory');
    expect(mem[0]!.id).toBe('memory');
    expect(mem[0]!.score).toBeGreaterThan(0);
    expect(index.search('zebra')).toEqual([]);
    expect(index.search('agent', 1)).toHaveLength(1);
  });

  it('rare terms weigh more than common ones, and removal updates the index', () => {
    const index = createRetrievalIndex();
    index.add(corpus);
    // "agent" appears in two documents, "backoff" in one
    const hits = index.search('agent backoff');
    expect(hits[0]!.id).toBe('mcp');
    index.remove('mcp');
    expect(index.search('backoff')).toEqual([]);
    expect(() => index.get('mcp')).toThrow(/not found/);
    expect(index.size).toBe(3);
    const [added] = index.add([{ text: 'backoff again' }]);
    expect(added!.id).toBe('doc-1');
    expect(index.search('backoff')[0]!.id).toBe('doc-1');
  });

  it('tokenizes on letters and digits, lower-cased, without stop words', () => {
    expect(tokenize('The Leader-2 is DOWN!')).toEqual(['leader', '2', 'down']);
  });
});

describe('evaluators', () => {
  const runner = createEvalRunner();

  it('lists its evaluators', () => {
    expect(runner.evaluators().map((e) => e.name)).toEqual([
      'exact_match',
      'contains',
      'regex',
      'length',
      'json_valid',
      'token_f1',
    ]);
  });

  it('evaluates and combines results', () => {
    expect(
      runner.evaluate({
        evaluators: ['exact_match'],
        output: ' Paris ',
        expected: 'paris',
        options: { ignore_case: true },
      }).passed,
    ).toBe(true);
    expect(runner.evaluate({ evaluators: ['exact_match'], output: 'Paris', expected: 'London' }).passed).toBe(false);
    const both = runner.evaluate({
      evaluators: ['contains', 'length'],
      output: 'the capital is Paris',
      expected: ['capital', 'Rome'],
      options: { max: 10 },
    });
    expect(both.passed).toBe(false);
    expect(both.results[0]).toMatchObject({ passed: false, score: 0.5, reason: 'missing: "Rome"' });
    expect(both.results[1]!.passed).toBe(false);
    expect(runner.evaluate({ evaluators: ['regex'], output: 'order #123', expected: '#\\d+' }).passed).toBe(true);
    expect(runner.evaluate({ evaluators: ['json_valid'], output: '{"a":1}' }).score).toBe(1);
    const f1 = runner.evaluate({
      evaluators: ['token_f1'],
      output: 'new leader elected quickly',
      expected: 'a new leader was elected',
    });
    expect(f1.results[0]!.score).toBeCloseTo(0.8571, 3);
  });

  it('rejects unknown evaluators and bad parameters with a clear message', () => {
    expect(() => runner.evaluate({ evaluators: ['nope'], output: 'x' })).toThrow(
      /unknown evaluator "nope"; known: exact_match/,
    );
    expect(() => runner.evaluate({ evaluators: ['regex'], output: 'x', expected: '(' })).toThrow(/invalid pattern/);
    expect(() => runner.evaluate({ evaluators: ['exact_match'], output: 'x' })).toThrow(/needs "expected"/);
  });
});
