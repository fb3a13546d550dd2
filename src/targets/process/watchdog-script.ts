/**
 * The watchdog's own program, kept as text so that it runs the same from the
 * sources and from dist: the target writes it into its run directory and
 * starts it with node, detached in its own session. Plain CommonJS, no
 * imports beyond node's own, so nothing can fail to load after the arena is
 * gone.
 *
 * It reads JSON lines on stdin: which pids are paused (and until when), which
 * start command's process group to end, which fault URLs to call to revert.
 * A pause past its own end is resumed here even while the arena lives: a
 * frozen arena (SIGSTOP, Ctrl-Z) cannot end it. When stdin ends without a
 * `done` line, or the arena's pid disappears (SIGKILL included), it resumes
 * every paused pid, calls every revert URL, ends the start command (SIGTERM,
 * then SIGKILL after its grace), removes the run directory and exits.
 */
export const WATCHDOG_SOURCE = String.raw`'use strict';
const fs = require('node:fs');
const http = require('node:http');
const arenaPid = Number(process.env.ARENA_WATCHDOG_PARENT);
const runDir = process.env.ARENA_WATCHDOG_RUN_DIR || '';
const paused = new Map();   // "pid:start" -> {pid, start, until?}
const reverts = new Map();  // key -> {url, method, headers}
const groups = new Map();   // pid -> {pid, start, graceMs}
let cleaning = false;
let finishedNormally = false;

function log(msg) {
  try { process.stderr.write(new Date().toISOString() + ' watchdog: ' + msg + '\n'); } catch {}
}
function startTime(pid) {
  try {
    const text = fs.readFileSync('/proc/' + pid + '/stat', 'latin1');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    if (f[0] === 'Z' || f[0] === 'X') return undefined;
    return Number(f[19]);
  } catch { return undefined; }
}
// the same process, not a newer one that got its pid
function same(pid, start) { return pid > 1 && startTime(pid) === start; }
function send(pid, sig) { try { process.kill(pid, sig); return true; } catch { return false; } }
function tree(root) {
  const kids = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = fs.readFileSync('/proc/' + name + '/stat', 'latin1');
      const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(f[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push({ pid: Number(name), start: Number(f[19]) });
    } catch {}
  }
  const out = [];
  const queue = [root];
  while (queue.length) {
    const p = queue.shift();
    for (const k of kids.get(p) || []) { out.push(k); queue.push(k.pid); }
  }
  return out;
}
function callRevert(r) {
  return new Promise((resolve) => {
    try {
      const req = http.request(r.url, { method: r.method || 'DELETE', headers: r.headers || {}, agent: false, timeout: 1000 }, (res) => { res.resume(); res.on('end', resolve); });
      // the whole call, not only the wait for headers: a server that trickles is let go after 2 s
      setTimeout(() => { req.destroy(); resolve(); }, 2000).unref();
      req.on('error', () => resolve());
      req.on('timeout', () => { req.destroy(); resolve(); });
      req.end();
    } catch { resolve(); }
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function cleanup(why) {
  if (cleaning) return;
  cleaning = true;
  log('arena gone (' + why + '): resuming ' + paused.size + ' pid(s), reverting ' + reverts.size + ' fault(s), stopping ' + groups.size + ' start command(s)');
  for (const p of paused.values()) if (same(p.pid, p.start)) send(p.pid, 'SIGCONT');
  await Promise.all([...reverts.values()].map(callRevert));
  await Promise.all([...groups.values()].map(async (g) => {
    if (!same(g.pid, g.start)) return;
    const below = tree(g.pid);
    send(-g.pid, 'SIGCONT');
    send(-g.pid, 'SIGTERM');
    const until = Date.now() + g.graceMs;
    while (Date.now() < until) {
      if (!send(-g.pid, 0) && below.every((p) => !same(p.pid, p.start))) return;
      await sleep(50);
    }
    send(-g.pid, 'SIGKILL');
    for (const p of below) if (same(p.pid, p.start)) send(p.pid, 'SIGKILL');
  }));
  // the arena can no longer remove its run directory: its files would stay in the temp folder
  if (runDir) try { fs.rmSync(runDir, { recursive: true, force: true }); } catch {}
  log('done');
  process.exit(0);
}

// a pause whose end has come is resumed even if the arena, frozen, cannot do it
function enforceDeadlines() {
  const now = Date.now();
  for (const [key, p] of paused) {
    if (p.until === undefined || now < p.until) continue;
    paused.delete(key);
    if (same(p.pid, p.start) && send(p.pid, 'SIGCONT')) log('pause of pid ' + p.pid + ' ended at its deadline: resumed');
  }
}

function handle(line) {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  switch (m.op) {
    case 'pause': for (const p of m.pids) paused.set(p.pid + ':' + p.start, { pid: p.pid, start: p.start, until: m.until }); break;
    case 'resume': for (const p of m.pids) paused.delete(p.pid + ':' + p.start); break;
    case 'revert': reverts.set(m.key, { url: m.url, method: m.method, headers: m.headers }); break;
    case 'reverted': reverts.delete(m.key); break;
    case 'group': groups.set(m.pid, { pid: m.pid, start: m.start, graceMs: m.graceMs }); break;
    case 'ungroup': groups.delete(m.pid); break;
    case 'restored': log('restarted by the arena: told ' + paused.size + ' paused pid(s), ' + reverts.size + ' revert(s), ' + groups.size + ' start command(s)'); break;
    case 'done': finishedNormally = true; log('run ended normally'); process.exit(0);
  }
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) { handle(buffered.slice(0, nl)); buffered = buffered.slice(nl + 1); }
});
process.stdin.on('end', () => { if (!finishedNormally) void cleanup('pipe closed'); });
process.stdin.on('error', () => { if (!finishedNormally) void cleanup('pipe error'); });
for (const sig of ['SIGINT', 'SIGHUP', 'SIGTERM']) process.on(sig, () => void cleanup(sig));
const arenaStart = startTime(arenaPid);
setInterval(() => {
  if (!same(arenaPid, arenaStart)) void cleanup('arena pid ' + arenaPid + ' exited');
  else enforceDeadlines();
}, 100);
process.stdout.write('ready\n');
`;
