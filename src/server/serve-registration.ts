/**
 * `arena serve` in the run directory (DESIGN §16): registered while it serves, so `arena ps` lists it and
 * `arena stop` reaches it. A server is not shut down by a stop: it looks for its stop file a few times a
 * second, stops its runs and reverts every fault (what `POST /arena/stop` does), then removes the file,
 * which is how `arena stop` knows it is done.
 */
import { errorMessage } from '../shared/errors.js';
import { clearStopRequest, readStopRequest, registerRun } from '../shared/runs/registry.js';

/** how often the server looks for its stop file */
const STOP_POLL_MS = 100;

export interface ServeRegistration {
  runId: string;
  close(): void;
}

export function registerServe(
  env: Readonly<Record<string, string | undefined>>,
  info: { cwd: string; url: string },
  stop: (why: string) => Promise<unknown>,
  log: (line: string) => void,
): ServeRegistration | undefined {
  let run: ReturnType<typeof registerRun>;
  try {
    run = registerRun(env, { command: 'serve', cwd: info.cwd, url: info.url, stopBy: 'file' });
  } catch (err) {
    log(`arena: not in the run directory, arena stop will not see this server: ${errorMessage(err)}`);
    return undefined;
  }
  let isStopping = false;
  const timer = setInterval(() => {
    if (isStopping) return;
    const request = readStopRequest(run.dir, run.entry.run_id);
    if (!request) return;
    isStopping = true;
    log(`arena: arena stop (pid ${request.by_pid}) received: stopping the runs, reverting every active fault`);
    void stop(`arena stop from pid ${request.by_pid}`)
      .catch((err: unknown) => log(`arena: the emergency stop failed: ${errorMessage(err)}`))
      .finally(() => {
        clearStopRequest(run.dir, run.entry.run_id);
        isStopping = false;
      });
  }, STOP_POLL_MS);
  timer.unref();
  return {
    runId: run.entry.run_id,
    close() {
      clearInterval(timer);
      run.unregister();
    },
  };
}
