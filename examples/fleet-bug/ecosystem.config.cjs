// The example fleet with a planted bug (catch-up.mjs): the same front door and
// workers as examples/fleet, run unchanged from there, under the same pm2
// restart policy; each worker loads catch-up.mjs first. The workers keep their
// journals and pid files in examples/fleet/run, where the front door audits them.
const path = require('node:path');
const fleet = path.join(__dirname, '..', 'fleet');
const restartDelay = Number(process.env.FLEET_RESTART_DELAY ?? 300);
// one base port, as in examples/fleet/ecosystem.config.cjs
const base = Number(process.env.FLEET_PORT || 7000);
if (!Number.isInteger(base) || base < 1 || base > 65535 - 103)
  throw new Error(`FLEET_PORT is not a usable base port: ${process.env.FLEET_PORT}`);
const worker = (n, port) => ({
  name: `worker-${n}`,
  script: 'worker.mjs',
  args: `--id worker-${n} --port ${port} --pid-file run/worker-${n}.pid`,
  node_args: `--import ${path.join(__dirname, 'catch-up.mjs')}`,
  cwd: fleet,
  restart_delay: restartDelay,
  max_restarts: 1000,
  min_uptime: 100,
  kill_timeout: 1000,
});

module.exports = {
  apps: [
    // the front door reaches each worker through the arena's TCP fault proxy in front of it (base+1..3 → base+101..103)
    {
      name: 'front',
      script: 'front.mjs',
      args: `--port ${base} --workers worker-1=${base + 1},worker-2=${base + 2},worker-3=${base + 3}`,
      cwd: fleet,
      restart_delay: restartDelay,
      kill_timeout: 1000,
    },
    worker(1, base + 101),
    worker(2, base + 102),
    worker(3, base + 103),
  ],
};
