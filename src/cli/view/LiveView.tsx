/**
 * The live view: finished lines (actions, recoveries, reverts) are printed once
 * above a short live region with agents, active faults, the score dimensions and
 * progress. Reads throttled snapshots only.
 */
import { useEffect } from 'react';
import { Box, useStdout } from 'ink';
import type { ViewStore } from './view-store.js';
import { useViewStore } from './use-view-store.js';
import { EndedWhy, Header } from './Header.js';
import { AgentsPanel } from './AgentsPanel.js';
import { ScorePanel } from './ScorePanel.js';
import { formatFeedLine } from './FeedLine.js';

/**
 * The frame has one fixed width, whatever it shows: sized to its content it jumped
 * between frames (66 → 102 columns) as faults came and went. It stays under the
 * terminal's width, since a wrapped line makes ink miscount the lines it must erase
 * and stack a new frame below the old one on every redraw.
 */
export const FRAME_WIDTH = 96;

export function frameWidth(columns: number | undefined): number {
  return columns && columns > 0 ? Math.min(FRAME_WIDTH, columns - 1) : FRAME_WIDTH;
}

export function LiveView({ store }: { store: ViewStore }) {
  const state = useViewStore(store);
  const { stdout } = useStdout();
  usePrintFeed(store);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} width={frameWidth(stdout.columns)} flexShrink={0}>
      <Header state={state} />
      <EndedWhy state={state} />
      <AgentsPanel agents={state.agents} faults={state.faults} />
      <ScorePanel state={state} />
    </Box>
  );
}

/**
 * Prints new finished lines above the live region through ink's stdout writer, which
 * erases the live region, writes them and repaints its last frame as is. <Static> would
 * instead cost two full ink redraws per new line (one to print it, one after it drops
 * the printed items), and a redraw is most of the view's CPU. Lines have their own,
 * faster cadence in the store than redraws, so they appear promptly for no redraw.
 */
function usePrintFeed(store: ViewStore): void {
  const { write } = useStdout();
  useEffect(() => {
    let printed = 0;
    const print = () => {
      const feed = store.getFeed();
      if (feed.length <= printed) return;
      write(
        feed
          .slice(printed)
          .map((item) => `${formatFeedLine(item)}\n`)
          .join(''),
      );
      printed = feed.length;
    };
    print();
    return store.subscribeFeed(print);
  }, [store, write]);
}
