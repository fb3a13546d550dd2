/**
 * The licence notes a one-file bundle ships with: name@version (licence) and the licence text of
 * every package with code in it (from esbuild's metafile). Used by scripts/bundle-vendor.mjs and
 * scripts/bundle-cli.mjs.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** the package a bundled file belongs to: its directory under the last node_modules/ of its path */
function packageDir(input) {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return undefined;
  const parts = input.slice(at + 'node_modules/'.length).split('/');
  return input.slice(0, at + 'node_modules/'.length) + parts.slice(0, parts[0].startsWith('@') ? 2 : 1).join('/');
}

/** the notes of every package in `metafile`'s inputs, `first`'s (the package a vendor bundle opens) first */
export async function licences(root, metafile, first) {
  const dirs = [...new Set(Object.keys(metafile.inputs).map(packageDir).filter(Boolean))];
  const notes = [];
  for (const dir of dirs) {
    const meta = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'));
    const file = (await readdir(join(root, dir))).find((f) => /^licen[cs]e(-mit)?(\.md|\.txt)?$/i.test(f));
    if (!file) throw new Error(`${dir} has no licence file to ship with its code`);
    const text = (await readFile(join(root, dir, file), 'utf8')).trim().replaceAll('*/', '* /');
    notes.push({ first: meta.name === first, text: `${meta.name}@${meta.version} (${meta.license}):\n${text}` });
  }
  return notes.sort((a, b) => Number(b.first) - Number(a.first)).map((n) => n.text);
}
