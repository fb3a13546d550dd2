#!/usr/bin/env node
// Thin launcher: everything lives in dist/cli (built by `npm ci` / `npm run build`).
import { run } from '../dist/cli/main.js';

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`arena: unexpected error: ${err?.stack ?? err}\n`);
    process.exitCode = 3;
  },
);
