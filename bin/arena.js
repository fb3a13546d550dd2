#!/usr/bin/env node
// Thin launcher: everything lives in dist/cli (built by `npm ci` / `npm run build`).
// `--version` is answered here, before commander and dist load: scripts call it often and it needs
// nothing but package.json.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  import('../dist/cli/main.js')
    .then(({ run }) => run(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`arena: unexpected error: ${err?.stack ?? err}\n`);
        process.exitCode = 3;
      },
    );
}
