import { Box, Text } from 'ink';
import type { FaultView } from './view-state.js';

const MAX_ROWS = 6;

export function FaultsPanel({ faults }: { faults: FaultView[] }) {
  const shown = faults.slice(0, MAX_ROWS);
  return (
    <Box flexDirection="column">
      <Text bold underline>Active faults ({faults.length})</Text>
      {faults.length === 0 && <Text dimColor>none</Text>}
      {shown.map((f) => (
        <Box key={f.id} columnGap={1}>
          <Text color="red">{f.kind.padEnd(18)}</Text>
          <Text>{f.target.padEnd(15)}</Text>
          <Text dimColor>{f.left_ms === undefined ? 'until reverted' : `${(f.left_ms / 1000).toFixed(1)}s left`}</Text>
        </Box>
      ))}
      {faults.length > MAX_ROWS && <Text dimColor>+{faults.length - MAX_ROWS} more</Text>}
    </Box>
  );
}
