/**
 * Agents, each on one row with the faults acting on it, so a fault never sits
 * beside an unrelated agent (side-by-side panels lined row i of one up with
 * row i of the other). Faults on targets that are not agents (DAG nodes,
 * edges) follow in their own rows. Every column has a fixed width, so the
 * frame keeps its width from one redraw to the next.
 *
 * A row is one <Text> with padded, coloured spans rather than a <Box> per
 * cell: a redraw lays out and measures every node, and with a box per cell the
 * agents alone were ~60 nodes of a ~90-node frame.
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
/** column widths: id, role, status, restarts; one space between columns */
const ID_WIDTH = 15;
const ROLE_WIDTH = 12;
const STATUS_WIDTH = 10;
const RESTARTS_WIDTH = 12;

export function faultText(f: FaultView): string {
  return `${f.kind} ${f.left_ms === undefined ? 'until reverted' : `${(f.left_ms / 1000).toFixed(1)}s left`}`;
}

/** exactly `width` columns: padded, or cut with an ellipsis as ink's truncate-end does */
function padCell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

export function AgentsPanel({ agents, faults = [] }: { agents: AgentInfo[]; faults?: FaultView[] }) {
  const ids = new Set(agents.map((a) => a.id));
  const other = faults.filter((f) => !ids.has(f.target));
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold underline>
          Agents
        </Text>
        <Text dimColor> · active faults: {faults.length}</Text>
      </Text>
      {agents.length === 0 && <Text dimColor>waiting for the first snapshot…</Text>}
      {agents.map((a) => {
        const own = faults.filter((f) => f.target === a.id);
        return (
          <Text key={a.id} wrap="truncate-end">
            {padCell(a.id, ID_WIDTH)}{' '}
            <Text color={a.role === 'leader' || a.role === 'orchestrator' ? 'cyan' : undefined}>
              {padCell(a.role, ROLE_WIDTH)}
            </Text>{' '}
            <Text color={STATUS_COLOR[a.status]}>{padCell(a.status, STATUS_WIDTH)}</Text>{' '}
            <Text dimColor>{padCell(`restarts ${a.restarts}`, RESTARTS_WIDTH)}</Text>{' '}
            <Text color="red">{own.map(faultText).join(', ')}</Text>
          </Text>
        );
      })}
      {other.slice(0, MAX_OTHER_ROWS).map((f) => (
        <Text key={f.id} wrap="truncate-end">
          {padCell(f.target, ID_WIDTH)} <Text color="red">{faultText(f)}</Text>
        </Text>
      ))}
      {other.length > MAX_OTHER_ROWS && <Text dimColor>+{other.length - MAX_OTHER_ROWS} more</Text>}
    </Box>
  );
}
