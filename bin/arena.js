#!/usr/bin/env node
// Thin launcher: the CLI is one bundled file, dist/cli-bundle.cjs (built by `npm ci` / `npm run build`).
// CommonJS (bin/package.json) because a CommonJS entry starts a few ms sooner than an ES module one,
// and `--version` is answered here, before commander and dist load: it needs only package.json.
'use strict';

// a reader that went away (`arena … | head`) is not a failure: later writes to it are dropped and the
// command runs to its end, so faults are still reverted, reports written and the exit code is the command's
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
});

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  process.stdout.write(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else {
  // the compile cache first: it must be on before the CLI's bundle loads (dist/cli.cjs,
  // scripts/bundle-cli.mjs), which it then loads with the cache of this command
  new Promise((resolve) => {
    const { enableCompileCache, commandVariant } = require('../dist/vendor/compile-cache.cjs');
    enableCompileCache();
    resolve(require('../dist/cli.cjs').loadCli(commandVariant(argv)).run(argv));
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`arena: unexpected error: ${err?.stack ?? err}\n`);
      process.exitCode = 3;
    },
  );
}
