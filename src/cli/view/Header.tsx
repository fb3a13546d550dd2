import { Box, Text } from 'ink';
import { runTitle, type ViewState } from './view-state.js';

const BAR_WIDTH = 24;

export function Header({ state }: { state: ViewState }) {
  const filled = Math.round(Math.min(1, Math.max(0, state.progress)) * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  return (
    <Box columnGap={1}>
      <Text bold>{runTitle(state.kind, state.name)}</Text>
      {state.seed !== null && <Text dimColor>seed {state.seed}</Text>}
      <Text color="cyan">{state.phase ?? 'starting'}</Text>
      <Text>{bar}</Text>
      <Text>{Math.round(state.progress * 100)}%</Text>
      <Text dimColor>{(state.at_ms / 1000).toFixed(1)}s</Text>
    </Box>
  );
}
