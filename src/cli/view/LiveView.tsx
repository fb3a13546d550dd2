/**
 * The live view: finished lines (actions, recoveries, reverts) are printed once
 * through <Static>; below them a short live region with agents, active faults,
 * the score dimensions and progress. Reads throttled snapshots only.
 */
import { Box, Static } from 'ink';
import type { ViewStore } from './view-store.js';
import { useViewStore } from './use-view-store.js';
import { Header } from './Header.js';
import { AgentsPanel } from './AgentsPanel.js';
import { FaultsPanel } from './FaultsPanel.js';
import { ScorePanel } from './ScorePanel.js';
import { FeedLine } from './FeedLine.js';

export function LiveView({ store }: { store: ViewStore }) {
  const state = useViewStore(store);
  return (
    <>
      <Static items={state.feed}>{(item) => <FeedLine key={item.id} item={item} />}</Static>
      <Box flexDirection="column" borderStyle="round" paddingX={1} alignSelf="flex-start">
        <Header state={state} />
        <Box columnGap={4}>
          <AgentsPanel agents={state.agents} />
          <FaultsPanel faults={state.faults} />
        </Box>
        <ScorePanel state={state} />
      </Box>
    </>
  );
}
