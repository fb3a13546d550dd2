import { Box, Text } from 'ink';
import type { AgentInfo } from '../../arena/providers.js';

const STATUS_COLOR: Record<AgentInfo['status'], string> = {
  running: 'green',
  paused: 'yellow',
  restarting: 'yellow',
  stopped: 'red',
  failed: 'red',
};

export function AgentsPanel({ agents }: { agents: AgentInfo[] }) {
  return (
    <Box flexDirection="column">
      <Text bold underline>Agents</Text>
      {agents.length === 0 && <Text dimColor>waiting for the first snapshot…</Text>}
      {agents.map((a) => (
        <Box key={a.id} columnGap={1}>
          <Text>{a.id.padEnd(15)}</Text>
          <Text color={a.role === 'leader' || a.role === 'orchestrator' ? 'cyan' : undefined}>{a.role.padEnd(12)}</Text>
          <Text color={STATUS_COLOR[a.status]}>{a.status.padEnd(10)}</Text>
          <Text dimColor>restarts {a.restarts}</Text>
        </Box>
      ))}
    </Box>
  );
}
