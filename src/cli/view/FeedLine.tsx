import chalk from 'chalk';
import type { FeedItem } from './view-state.js';

const TONE_COLOR = { ok: chalk.green, bad: chalk.red, info: (text: string) => text } as const;

/** one finished line as the terminal shows it: dim run time, then the text in its tone's colour */
export function formatFeedLine(item: FeedItem): string {
  return `${chalk.dim(`[${(item.at_ms / 1000).toFixed(2).padStart(7)}s]`)} ${TONE_COLOR[item.tone](item.text)}`;
}
