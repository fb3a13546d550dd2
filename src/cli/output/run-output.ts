/**
 * Where a run's events go, per output mode: the live ink view (tty, lazily
 * imported), or plain lines on stderr (plain and json). Extra listeners (an SSE
 * publisher for `--serve`) plug in through `addListener`.
 */
import chalk from 'chalk';
import type { RunEvent, RunEventListener } from '../../arena/report.js';
import type { CliContext } from '../context.js';
import type { OutputMode } from './mode.js';
import { createPlainReporter } from './plain-reporter.js';

export interface RunOutput {
  readonly mode: OutputMode;
  /** the one listener handed to the engine; fans out to every consumer */
  readonly listener: RunEventListener;
  addListener(listener: RunEventListener): void;
  /** every event seen so far (for the partial report on interrupt) */
  readonly events: readonly RunEvent[];
  /** stops the live view so the final table prints below it */
  close(): Promise<void>;
}

export async function openRunOutput(ctx: Pick<CliContext, 'stdout' | 'stderr'>, mode: OutputMode): Promise<RunOutput> {
  const listeners: RunEventListener[] = [];
  const events: RunEvent[] = [];
  let closeView: () => Promise<void> = async () => undefined;
  if (mode.kind === 'tty') {
    // React's development build costs several times more CPU per redraw; a CLI user never needs it
    process.env.NODE_ENV ??= 'production';
    const { mountLiveView } = await import('../view/mount.js');
    // the level applyColor gave the CLI's chalk, for the view's (see mountLiveView)
    const view = mountLiveView(ctx.stdout, ctx.stderr, chalk.level);
    listeners.push(view.listener);
    closeView = view.close;
  } else {
    listeners.push(createPlainReporter(ctx.stderr));
  }
  return {
    mode,
    events,
    listener(event) {
      if (event.type !== 'snapshot') events.push(event);
      for (const l of listeners) {
        // a consumer that throws must not break the run
        try {
          l(event);
        } catch {
          /* ignored: output is best effort, the report is the record */
        }
      }
    },
    addListener(listener) {
      listeners.push(listener);
    },
    close: () => closeView(),
  };
}
