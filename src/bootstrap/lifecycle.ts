/**
 * Ordered start and stop of the root's modules: started in order, stopped in
 * reverse; every stop runs even when an earlier one failed, and the failures
 * are reported together rather than swallowed.
 */
import { ArenaError, errorMessage } from '../shared/errors.js';

export interface Module {
  name: string;
  start?(): Promise<void> | void;
  stop?(): Promise<void> | void;
}

/** Several modules failed to stop (or start); `errors` holds each, named. */
export class RootLifecycleError extends ArenaError {
  readonly errors: Array<{ module: string; error: unknown }>;
  constructor(phase: 'start' | 'stop', errors: Array<{ module: string; error: unknown }>) {
    super(
      `${errors.length} module(s) failed to ${phase}: ${errors.map((e) => `${e.module}: ${errorMessage(e.error)}`).join('; ')}`,
      { code: `${phase}_failed` },
    );
    this.errors = errors;
  }
}

export class Lifecycle {
  private readonly modules: Module[] = [];
  private started: Module[] = [];

  add(module: Module): void {
    this.modules.push(module);
  }

  /** starts in order; on a failure, stops what already started and throws */
  async start(): Promise<void> {
    for (const m of this.modules) {
      try {
        await m.start?.();
        this.started.push(m);
      } catch (error) {
        const cleanup = await this.stopStarted();
        throw new RootLifecycleError('start', [{ module: m.name, error }, ...cleanup]);
      }
    }
  }

  /** stops in reverse order; throws RootLifecycleError listing every failure */
  async stop(): Promise<void> {
    const errors = await this.stopStarted();
    if (errors.length > 0) throw new RootLifecycleError('stop', errors);
  }

  private async stopStarted(): Promise<Array<{ module: string; error: unknown }>> {
    const errors: Array<{ module: string; error: unknown }> = [];
    for (const m of this.started.reverse()) {
      try {
        await m.stop?.();
      } catch (error) {
        errors.push({ module: m.name, error });
      }
    }
    this.started = [];
    return errors;
  }
}
