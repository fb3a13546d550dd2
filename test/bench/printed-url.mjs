// The URL a child process prints once it listens (`served on http://…`, `serving on http://…`), for
// benchmarks that start `arena serve` or `arena target serve`. Rejects if the child exits first.
// (The tests' test/helpers/listening.ts does the same in TypeScript; benchmarks are plain .mjs.)
export function printedUrl(child, pattern) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = pattern.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`${child.spawnargs.slice(1).join(' ')} exited with ${code} before printing its URL`)),
    );
  });
}
