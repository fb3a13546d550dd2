import { describe, expect, it } from 'vitest';
import {
  createToolFaultBook,
  mcpFaultApplier,
  DEFAULT_SLOW_TOOL_DELAY_MS,
} from '../../../../src/proxies/mcp/faults.js';
import type { FaultRequest } from '../../../../src/protocol/wire.js';

function setup() {
  const book = createToolFaultBook();
  const disconnects: string[] = [];
  const apply = mcpFaultApplier({
    book,
    disconnect: (r) => (disconnects.push(r.id), { report: { sessions_closed: 0 } }),
  });
  const req = (id: string, type: string, params: Record<string, unknown> = {}): FaultRequest => ({
    id,
    type,
    params,
    lease_ms: 1000,
  });
  return { book, apply, req, disconnects };
}

describe('MCP proxy faults', () => {
  it('picks tool_error before tool_timeout before slow_tool, and honours params.tool', async () => {
    const { book, apply, req } = setup();
    const slow = await apply(req('s', 'slow_tool'));
    const hold = await apply(req('h', 'tool_timeout', { tool: 'search' }));
    expect(book.pick('echo')).toMatchObject({ id: 's', delayMs: DEFAULT_SLOW_TOOL_DELAY_MS });
    expect(book.pick('search')).toMatchObject({ id: 'h' });
    await apply(req('e', 'tool_error', { tool: 'search', mode: 'jsonrpc', code: -32001 }));
    expect(book.pick('search')).toMatchObject({ id: 'e', mode: 'jsonrpc', code: -32001 });
    await hold.revert!();
    await slow.revert!();
    expect(book.pick('echo')).toBeUndefined();
    expect(book.size()).toBe(1);
  });

  it("settles a tool_timeout fault's `ended` on revert, which is what releases held calls", async () => {
    const { book, apply, req } = setup();
    const applied = await apply(req('h', 'tool_timeout'));
    const fault = book.pick('any')!;
    let isReleased = false;
    void fault.ended.then(() => (isReleased = true));
    await Promise.resolve();
    expect(isReleased).toBe(false);
    await applied.revert!();
    await Promise.resolve();
    expect(isReleased).toBe(true);
  });

  it("mcp_disconnect goes to the mode's disconnect and stays instant", async () => {
    const { apply, req, disconnects } = setup();
    const applied = await apply(req('d', 'mcp_disconnect'));
    expect(disconnects).toEqual(['d']);
    expect(applied.revert).toBeUndefined();
  });

  it.each([
    ['latency', {}, 422, 'has no fault "latency"'],
    ['mcp_disconnect', { tool: 'x' }, 400, 'params.tool: mcp_disconnect takes no params'],
    ['tool_timeout', { delay_ms: 5 }, 400, 'params.delay_ms: tool_timeout takes tool'],
    ['tool_error', { mode: 'loud' }, 400, 'params.mode'],
    ['tool_error', { code: 1.5, mode: 'jsonrpc' }, 400, 'params.code: expected an integer'],
    ['tool_error', { message: '' }, 400, 'params.message'],
    ['slow_tool', { delay_ms: '5s' }, 400, 'params.delay_ms'],
    ['slow_tool', { tool: '' }, 400, 'params.tool'],
  ])('refuses %s with %j (%i) before applying anything', async (type, params, status, text) => {
    const { book, apply, req, disconnects } = setup();
    await expect(apply(req('x', type, params))).rejects.toMatchObject({
      status,
      message: expect.stringContaining(text),
    });
    expect(book.size()).toBe(0);
    expect(disconnects).toEqual([]);
  });
});
