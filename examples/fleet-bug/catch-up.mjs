// The planted bug of examples/fleet-bug, loaded into each unchanged worker of
// examples/fleet with `node --import`: a "catch-up mode" that looks like an
// optimisation. When a worker is resumed after being stopped (SIGCONT: a
// frozen container or VM coming back), it journals for CATCH_UP_MS into a side
// file (journal-ID.log.catch-up) and merges it into its journal at the end.
// The side file is on disk, so the audit counts it. The bug: a worker that
// starts deletes a leftover side file, as if it had been merged already.
//   stopped alone: nothing is lost (the side file is merged);
//   killed alone: nothing is lost (there is no side file);
//   killed while catching up after a stop: pm2 restarts it, and the restarted
//   worker deletes the jobs it had acknowledged since the stop (at its first write).
// Two faults on the same worker, the second inside the first one's after-effect.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { basename } from 'node:path';

const CATCH_UP_MS = Number(process.env.FLEET_CATCH_UP_MS ?? 2000);
const appendNow = fs.appendFileSync;
/** the worker's journal, known from its first write */
let journal;
let catchingUp;

function merge() {
  catchingUp = undefined;
  const side = `${journal}.catch-up`;
  if (journal === undefined || !fs.existsSync(side)) return;
  appendNow(journal, fs.readFileSync(side, 'utf8'));
  fs.rmSync(side);
}

fs.appendFileSync = (file, data, ...rest) => {
  if (!/^journal-.*\.log$/.test(basename(String(file)))) return appendNow(file, data, ...rest);
  if (journal === undefined) {
    journal = String(file);
    // the bug: a side file left by a killed worker was never merged, yet it is thrown away
    fs.rmSync(`${journal}.catch-up`, { force: true });
  }
  return appendNow(catchingUp === undefined ? file : `${journal}.catch-up`, data, ...rest);
};
// the worker imports appendFileSync by name: make that binding see the patched one
syncBuiltinESMExports();

process.on('SIGCONT', () => {
  clearTimeout(catchingUp);
  catchingUp = setTimeout(merge, CATCH_UP_MS);
});
// an orderly stop (SIGTERM from pm2 at the end of a run) merges too: only a kill leaves the side file behind
process.on('exit', merge);
