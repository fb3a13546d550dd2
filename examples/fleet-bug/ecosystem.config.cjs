// The example fleet with a planted bug (catch-up.mjs): the same front door and
// workers as examples/fleet, run unchanged from there, under the same pm2
// restart policy; each worker loads catch-up.mjs first. The workers keep their
// journals and pid files in examples/fleet/run, where the front door audits them.
const path = require('node:path');
const fleet = path.join(__dirname, '..', 'fleet');
const restartDelay = Number(process.env.FLEET_RESTART_DELAY ?? 300);
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
    // the front door reaches each worker through the arena's TCP fault proxy in front of it (7001-7003 → 7101-7103)
    { name: 'front', script: 'front.mjs', args: '--port 7000 --workers worker-1=7001,worker-2=7002,worker-3=7003', cwd: fleet, restart_delay: restartDelay, kill_timeout: 1000 },
    worker(1, 7101),
    worker(2, 7102),
    worker(3, 7103),
  ],
};
