import { Box, Text } from 'ink';
import type { ViewState } from './view-state.js';
import { LIVE_SCORE_NOTE, liveRecoveryText } from '../../arena/report.js';

function colorFor(n: number): string {
  return n >= 90 ? 'green' : n >= 70 ? 'yellow' : 'red';
}

function Dimension({ label, value }: { label: string; value: number | null }) {
  return (
    <>
      {label}{' '}
      <Text color={value === null ? undefined : colorFor(value)}>
        {value === null ? '  -  ' : value.toFixed(1).padStart(5)}
      </Text>
    </>
  );
}

/** each line one <Text> with spans (two spaces between items), so a redraw lays out a handful of nodes */
export function ScorePanel({ state }: { state: ViewState }) {
  const live = state.live;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>
          score{' '}
          <Text color={live?.score != null ? colorFor(live.score) : undefined}>
            {live?.score != null ? live.score.toFixed(1) : '-'}
          </Text>
        </Text>
        {'  '}
        <Dimension label="availability" value={live?.availability ?? null} />
        {'  '}
        {live && (live.pending_recoveries ?? 0) > 0 ? (
          <>
            recovery <Text color="yellow">{liveRecoveryText(live)}</Text>
          </>
        ) : (
          <Dimension label="recovery" value={live?.recovery ?? null} />
        )}
        {'  '}
        <Dimension label="consistency" value={live?.consistency ?? null} />
      </Text>
      {state.status === null && (
        <Text dimColor wrap="truncate-end">
          {LIVE_SCORE_NOTE}
        </Text>
      )}
      <Text dimColor>
        actions {state.actions.ok} ok, {state.actions.failed} failed · recoveries {state.recoveries.recovered} ok,{' '}
        {state.recoveries.missed} missed
        {state.recoveries.interrupted > 0 ? `, ${state.recoveries.interrupted} interrupted` : ''}
      </Text>
    </Box>
  );
}
