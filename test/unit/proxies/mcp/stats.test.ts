import { describe, expect, it } from 'vitest';
import { createStats, recordClient, snapshot } from '../../../../src/proxies/mcp/stats.js';

describe('MCP proxy stats', () => {
  it('counts sessions per agent name, and a name like __proto__ is only a name', () => {
    const stats = createStats('http');
    recordClient(stats, 'agent-a');
    recordClient(stats, 'agent-a');
    recordClient(stats, '__proto__').reconnects++;
    expect(({} as Record<string, unknown>).sessions).toBeUndefined();
    expect(JSON.parse(JSON.stringify(snapshot(stats).clients))).toEqual({
      'agent-a': { sessions: 2, reconnects: 0 },
      ['__proto__']: { sessions: 1, reconnects: 1 },
    });
  });
});
