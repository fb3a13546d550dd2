// pm2 runs the fleet and is its self-healing: it restarts a worker that dies
// after restart_delay. FLEET_AUTORESTART=false turns that off (the second
// target file does, to show what the score looks like without it).
const autorestart = process.env.FLEET_AUTORESTART !== 'false';
const restartDelay = Number(process.env.FLEET_RESTART_DELAY ?? 300);
// one base port (the target files pass ARENA_EXAMPLE_PORT, default 7000): the front door on it, the
// arena's TCP fault proxies on +1..+3, the workers on +101..+103
const base = Number(process.env.FLEET_PORT || 7000);
if (!Number.isInteger(base) || base < 1 || base > 65535 - 103)
  throw new Error(`FLEET_PORT is not a usable base port: ${process.env.FLEET_PORT}`);
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
    // the front door reaches each worker through the arena's TCP fault proxy in front of it (base+1..3 → base+101..103)
    {
      name: 'front',
      script: 'front.mjs',
      args: `--port ${base} --workers worker-1=${base + 1},worker-2=${base + 2},worker-3=${base + 3}`,
      cwd: __dirname,
      autorestart,
      restart_delay: restartDelay,
      kill_timeout: 1000,
    },
    worker(1, base + 101),
    worker(2, base + 102),
    worker(3, base + 103),
  ],
};
