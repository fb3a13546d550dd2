/**
 * Agents, each on one row with the faults acting on it, so a fault never sits
 * beside an unrelated agent (side-by-side panels lined row i of one up with
 * row i of the other). Faults on targets that are not agents (DAG nodes,
 * edges) follow in their own rows. Every column has a fixed width, so the
 * frame keeps its width from one redraw to the next.
 */
import { Box, Text } from 'ink';
import type { AgentInfo } from '../../arena/providers.js';
import type { FaultView } from './view-state.js';

const STATUS_COLOR: Record<AgentInfo['status'], string> = {
  running: 'green',
  paused: 'yellow',
  restarting: 'yellow',
  stopped: 'red',
  failed: 'red',
};

const MAX_OTHER_ROWS = 4;

export function faultText(f: FaultView): string {
  return `${f.kind} ${f.left_ms === undefined ? 'until reverted' : `${(f.left_ms / 1000).toFixed(1)}s left`}`;
}

export function AgentsPanel({ agents, faults = [] }: { agents: AgentInfo[]; faults?: FaultView[] }) {
  const ids = new Set(agents.map((a) => a.id));
  const other = faults.filter((f) => !ids.has(f.target));
  return (
    <Box flexDirection="column">
      <Box>
        <Text bold underline>Agents</Text>
        <Text dimColor> · active faults: {faults.length}</Text>
      </Box>
      {agents.length === 0 && <Text dimColor>waiting for the first snapshot…</Text>}
      {agents.map((a) => {
        const own = faults.filter((f) => f.target === a.id);
        return (
          <Box key={a.id} columnGap={1}>
            <Box width={15} flexShrink={0}><Text wrap="truncate-end">{a.id}</Text></Box>
            <Box width={12} flexShrink={0}><Text color={a.role === 'leader' || a.role === 'orchestrator' ? 'cyan' : undefined}>{a.role}</Text></Box>
            <Box width={10} flexShrink={0}><Text color={STATUS_COLOR[a.status]}>{a.status}</Text></Box>
            <Box width={12} flexShrink={0}><Text dimColor>restarts {a.restarts}</Text></Box>
            <Box flexGrow={1} flexShrink={1}><Text color="red" wrap="truncate-end">{own.map(faultText).join(', ')}</Text></Box>
          </Box>
        );
      })}
      {other.slice(0, MAX_OTHER_ROWS).map((f) => (
        <Box key={f.id} columnGap={1}>
          <Box width={15} flexShrink={0}><Text wrap="truncate-end">{f.target}</Text></Box>
          <Box flexGrow={1} flexShrink={1}><Text color="red" wrap="truncate-end">{faultText(f)}</Text></Box>
        </Box>
      ))}
      {other.length > MAX_OTHER_ROWS && <Text dimColor>+{other.length - MAX_OTHER_ROWS} more</Text>}
    </Box>
  );
}
