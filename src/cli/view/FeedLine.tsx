import { Text } from 'ink';
import type { FeedItem } from './view-state.js';

const TONE_COLOR = { ok: 'green', bad: 'red', info: undefined } as const;

export function FeedLine({ item }: { item: FeedItem }) {
  return (
    <Text>
      <Text dimColor>[{(item.at_ms / 1000).toFixed(2).padStart(7)}s]</Text> <Text color={TONE_COLOR[item.tone]}>{item.text}</Text>
    </Text>
  );
}
