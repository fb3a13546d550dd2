import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { mountLiveView } from '../../../../src/cli/view/mount.js';

/** A pseudo-terminal that reports no size, as `script` or a CI runner's pty may. */
function sizelessTty() {
  const chunks: string[] = [];
  const stream = Object.assign(new EventEmitter(), {
    isTTY: true,
    columns: 0,
    rows: 0,
    write(chunk: string) {
      chunks.push(String(chunk));
      return true;
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('mountLiveView', () => {
  it('never clears the screen and scrollback on a pseudo-terminal that reports 0 rows', async () => {
    const out = sizelessTty();
    const err = sizelessTty();
    const view = mountLiveView(out.stream as never, err.stream as never, 0);
    view.listener({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'x', seed: 1 });
    view.listener({ type: 'phase', at_ms: 10, phase: 'chaos' });
    await new Promise((r) => setTimeout(r, 300));
    view.listener({ type: 'phase', at_ms: 20, phase: 'cooldown' });
    await view.close();
    expect(out.text()).toContain('scenario x');
    expect(out.text()).not.toContain('\x1b[2J');
    expect(out.text()).not.toContain('\x1b[3J');
  });

  it("paints in the colour level it is given (the CLI's, from --no-color, NO_COLOR and FORCE_COLOR), not its own guess", async () => {
    const paint = async (level: 0 | 1) => {
      const out = sizelessTty();
      const view = mountLiveView(out.stream as never, sizelessTty().stream as never, level);
      view.listener({ type: 'run.started', at_ms: 0, kind: 'scenario', name: 'x', seed: 1 });
      view.listener({ type: 'phase', at_ms: 10, phase: 'chaos' });
      await view.close();
      return out.text();
    };
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts a colour sequence
    const sgr = /\x1b\[[\d;]*m/;
    expect(await paint(1)).toMatch(sgr);
    const plain = await paint(0);
    expect(plain).toContain('scenario x');
    expect(plain).not.toMatch(sgr);
  });
});
