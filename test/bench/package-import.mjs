#!/usr/bin/env node
// What `import 'chaos-arena'` costs now that better-sqlite3 and the MCP SDK load only when used,
// against the same import plus those two modules (what an eager import paid), and a bare node,
// all measured in this run. Usage: npm run build && node test/bench/package-import.mjs [runs]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
const env = { PATH: process.env.PATH };

function median(code) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const lazy = "await import('chaos-arena');";
const eager = `${lazy} await import('better-sqlite3'); await import('@modelcontextprotocol/sdk/client/index.js'); await import('@modelcontextprotocol/sdk/server/mcp.js'); await import('@modelcontextprotocol/sdk/inMemory.js');`;
median(eager); // warm the disk cache
const bare = median('');
const now = median(lazy);
const before = median(eager);
console.log(`node (nothing imported)                 median ${bare.toFixed(1)} ms`);
console.log(`import 'chaos-arena' (SQLite, MCP lazy)  median ${now.toFixed(1)} ms`);
console.log(`  + better-sqlite3 and the MCP SDK      median ${before.toFixed(1)} ms`);
console.log(
  `lazy / eager: ${(now / before).toFixed(2)}x  (import cost above bare node: ${(now - bare).toFixed(1)} ms vs ${(before - bare).toFixed(1)} ms)`,
);
