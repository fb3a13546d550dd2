#!/usr/bin/env node
// The `arena` command: turns on Node's own compile cache where Node has one (22.1 and later), then runs
// the CLI as tsc built it (dist/cli/main.js). CommonJS (bin/package.json), so `--version` is answered
// here from package.json without starting the ES module loader. Stack traces point at dist/**/*.js,
// files the package has; each ships with its source map, which `node --enable-source-maps` follows
// to the TypeScript (the maps carry it).
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
} else if (!require('node:fs').existsSync(require('node:path').join(__dirname, '..', 'dist', 'build-complete.json'))) {
  // `npm run build` writes this last: without it dist/ is missing or a build was cut short (Ctrl-C in prepare)
  notBuilt();
} else {
  // NODE_COMPILE_CACHE names its directory, NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own variables)
  require('node:module').enableCompileCache?.();
  import('../dist/cli/main.js')
    .then(({ run }) => run(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        // a module of dist/ that is not there: the build is incomplete, not a bug to show a stack for
        if (err?.code === 'ERR_MODULE_NOT_FOUND' && /[\\/]dist[\\/]/.test(String(err.message))) return notBuilt();
        process.stderr.write(`arena: unexpected error: ${err?.stack ?? err}\n`);
        process.exitCode = 3;
      },
    );
}

function notBuilt() {
  const root = require('node:path').join(__dirname, '..');
  process.stderr.write(
    `arena: the build in ${root}/dist is missing or incomplete (was \`npm run build\` interrupted?)\n` +
      `  run \`npm run build\` in ${root}, then try again\n`,
  );
  process.exitCode = 3;
}
