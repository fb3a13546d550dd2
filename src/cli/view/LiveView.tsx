/**
 * The live view: finished lines (actions, recoveries, reverts) are printed once
 * above a short live region with agents, active faults, the score dimensions and
 * progress. Reads throttled snapshots only.
 */
import { useEffect } from 'react';
import { Box, useStdout } from 'ink';
import type { ViewStore } from './view-store.js';
import { useViewStore } from './use-view-store.js';
import { Header } from './Header.js';
import { AgentsPanel } from './AgentsPanel.js';
import { FaultsPanel } from './FaultsPanel.js';
import { ScorePanel } from './ScorePanel.js';
import { formatFeedLine } from './FeedLine.js';

/**
 * Agents and faults side by side need up to 108 columns (longest ids, "until reverted", border).
 * A frame wider than the terminal wraps, ink then miscounts the lines it must erase and every
 * redraw stacks a new frame below the old one, so narrower terminals get the faults below the agents.
 */
const SIDE_BY_SIDE_COLUMNS = 110;

export function LiveView({ store }: { store: ViewStore }) {
  const state = useViewStore(store);
  const { stdout } = useStdout();
  const sideBySide = (stdout.columns ?? 0) >= SIDE_BY_SIDE_COLUMNS;
  usePrintFeed(store);
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1} alignSelf="flex-start">
      <Header state={state} />
      <Box columnGap={4} rowGap={1} flexDirection={sideBySide ? 'row' : 'column'}>
        <AgentsPanel agents={state.agents} />
        <FaultsPanel faults={state.faults} />
      </Box>
      <ScorePanel state={state} />
    </Box>
  );
}

/**
 * Prints new finished lines above the live region through ink's stdout writer, which
 * erases the live region, writes them and repaints its last frame as is. <Static> would
 * instead cost two full ink redraws per new line (one to print it, one after it drops
 * the printed items), and a redraw is most of the view's CPU. Printed when the store
 * publishes, so before React redraws the live region for the same snapshot.
 */
function usePrintFeed(store: ViewStore): void {
  const { write } = useStdout();
  useEffect(() => {
    let printed = 0;
    const print = () => {
      const { feed } = store.getSnapshot();
      if (feed.length <= printed) return;
      write(feed.slice(printed).map((item) => `${formatFeedLine(item)}\n`).join(''));
      printed = feed.length;
    };
    print();
    return store.subscribe(print);
  }, [store, write]);
}
