/**
 * The live view: finished lines (actions, recoveries, reverts) are printed once
 * through <Static>; below them a short live region with agents, active faults,
 * the score dimensions and progress. Reads throttled snapshots only.
 */
import { Box, Static, useStdout } from 'ink';
import type { ViewStore } from './view-store.js';
import { useViewStore } from './use-view-store.js';
import { Header } from './Header.js';
import { AgentsPanel } from './AgentsPanel.js';
import { FaultsPanel } from './FaultsPanel.js';
import { ScorePanel } from './ScorePanel.js';
import { FeedLine } from './FeedLine.js';

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
  return (
    <>
      <Static items={state.feed}>{(item) => <FeedLine key={item.id} item={item} />}</Static>
      <Box flexDirection="column" borderStyle="round" paddingX={1} alignSelf="flex-start">
        <Header state={state} />
        <Box columnGap={4} rowGap={1} flexDirection={sideBySide ? 'row' : 'column'}>
          <AgentsPanel agents={state.agents} />
          <FaultsPanel faults={state.faults} />
        </Box>
        <ScorePanel state={state} />
      </Box>
    </>
  );
}
