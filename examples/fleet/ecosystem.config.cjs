// pm2 runs the fleet and is its self-healing: it restarts a worker that dies
// after restart_delay. FLEET_AUTORESTART=false turns that off (the second
// target file does, to show what the score looks like without it).
const autorestart = process.env.FLEET_AUTORESTART !== 'false';
const restartDelay = Number(process.env.FLEET_RESTART_DELAY ?? 300);
const worker = (n, port) => ({
  name: `worker-${n}`,
  script: 'worker.mjs',
  args: `--id worker-${n} --port ${port} --pid-file run/worker-${n}.pid`,
  cwd: __dirname,
  autorestart,
  restart_delay: restartDelay,
  max_restarts: 1000,
  min_uptime: 100,
  kill_timeout: 1000,
});

module.exports = {
  apps: [
    // the front door reaches each worker through the arena's TCP fault proxy in front of it (7001-7003 → 7101-7103)
    { name: 'front', script: 'front.mjs', args: '--port 7000 --workers worker-1=7001,worker-2=7002,worker-3=7003', cwd: __dirname, autorestart, restart_delay: restartDelay, kill_timeout: 1000 },
    worker(1, 7101),
    worker(2, 7102),
    worker(3, 7103),
  ],
};
