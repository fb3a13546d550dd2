import { Text } from 'ink';
import { runTitle, type ViewState } from './view-state.js';

const BAR_WIDTH = 24;

/** one <Text> with spans: a line of nested text is one node to lay out, not one per item */
export function Header({ state }: { state: ViewState }) {
  const filled = Math.round(Math.min(1, Math.max(0, state.progress)) * BAR_WIDTH);
  const bar = '█'.repeat(filled) + '░'.repeat(BAR_WIDTH - filled);
  return (
    <Text wrap="truncate-end">
      <Text bold>{runTitle(state.kind, state.name)}</Text>
      {state.seed !== null && <Text dimColor> seed {state.seed}</Text>}{' '}
      {/* once finished, how it ended: "interrupted" after Ctrl-C, never "done" */}
      <Text
        color={
          state.status === null ? 'cyan' : state.status === 'passed' ? 'green' : state.ended_why ? 'red' : 'yellow'
        }
      >
        {state.status ?? state.phase ?? 'starting'}
      </Text>{' '}
      {bar} {Math.round(state.progress * 100)}% <Text dimColor>{(state.at_ms / 1000).toFixed(1)}s</Text>
    </Text>
  );
}

/** why the run ended early, on a line of its own (wrapped, never cut): the condition that tripped, or who stopped it */
export function EndedWhy({ state }: { state: ViewState }) {
  return state.ended_why === null ? null : <Text color="red">{state.ended_why}</Text>;
}
