/**
 * Mounts the live view. Only imported (lazily) by commands that draw, so ink
 * and React stay out of the start-up path of everything else.
 */
import chalk, { type ColorSupportLevel } from 'chalk';
import { render } from 'ink';
import type { RunEventListener } from '../../arena/report.js';
import type { Writer } from '../context.js';
import { createViewStore } from './view-store.js';
import { LiveView } from './LiveView.js';

export interface MountedView {
  listener: RunEventListener;
  /** publishes the last snapshot, lets ink paint it, and unmounts */
  close(): Promise<void>;
}

/**
 * How often the live region is redrawn. A redraw is ink's whole pipeline (React commit, yoga
 * layout, a grid of styled cells for the frame, ANSI tokenising of every line), 10–20 ms of CPU
 * on a loaded 2-core machine whatever changed, so the cost is redraws × that
 * (test/bench/cli-view-cpu.mjs). Nothing is lost in between: the store folds every event and
 * each redraw shows the latest aggregates; finished lines (actions, recoveries) do not wait for
 * a redraw and print every FEED_INTERVAL_MS.
 */
export const LIVE_VIEW_INTERVAL_MS = 1000;
const FEED_INTERVAL_MS = 250;

/**
 * `colorLevel`: the CLI's (output/mode.ts: --no-color, NO_COLOR, FORCE_COLOR), passed in rather than
 * read from chalk's global, so a caller (a test, a benchmark) decides the view's colours.
 */
export function mountLiveView(stdout: Writer, stderr: Writer, colorLevel: ColorSupportLevel): MountedView {
  chalk.level = colorLevel;
  const store = createViewStore({ intervalMs: LIVE_VIEW_INTERVAL_MS, feedIntervalMs: FEED_INTERVAL_MS });
  // a pseudo-terminal may report 0 columns; ink would then wrap every character onto its own line
  const out = stdout as NodeJS.WriteStream;
  if (out.isTTY && !out.columns) out.columns = 100;
  // … and with 0 rows ink takes every frame for a full screen and clears the terminal and its scrollback
  if (out.isTTY && !out.rows) out.rows = 40;
  const instance = render(<LiveView store={store} />, {
    stdout: stdout as NodeJS.WriteStream,
    stderr: stderr as NodeJS.WriteStream,
    // Ctrl-C is ours: the first press aborts and reverts faults, the second exits (src/cli/main.ts)
    exitOnCtrlC: false,
    patchConsole: false,
  });
  let isClosed = false;
  return {
    listener: (event) => store.push(event),
    async close() {
      if (isClosed) return;
      isClosed = true;
      store.flush();
      // give React one turn to render the final snapshot before unmounting
      await new Promise((resolve) => setImmediate(resolve));
      instance.unmount();
      await instance.waitUntilExit().catch(() => undefined);
    },
  };
}
