/**
 * dist/vendor/yaml.js, which the build makes the door to a one-file bundle of the yaml package
 * (dist/vendor/yaml.cjs; start-up: one file to load instead of 70), must stand in for the package exactly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as pkg from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const BUNDLE = join(REPO_ROOT, 'dist/vendor/yaml.js');
const BUNDLE_FILE = join(REPO_ROOT, 'dist/vendor/yaml.cjs');
const SOURCE =
  'name: a\nactions:\n  - at: 1s\n    action: { type: kill_agent, target_id: w1 }\nanchor: &x [1, 2]\nalias: *x\nbad: [\n';

describe('dist/vendor/yaml.js', () => {
  it('is a bundle (no import or require of the package) that names its licence', () => {
    const door = readFileSync(BUNDLE, 'utf8');
    expect(door).not.toMatch(/from\s*['"]yaml['"]/);
    expect(door).toContain("loadBundle(new URL('./yaml.cjs', import.meta.url)");
    const text = readFileSync(BUNDLE_FILE, 'utf8');
    expect(text).not.toMatch(/require\(['"]yaml['"]\)|from\s*['"]yaml['"]/);
    expect(text).toMatch(/yaml@\d+\.\d+\.\d+ \(ISC\)/);
    expect(text.length).toBeGreaterThan(100_000); // the package itself, not a re-export
  });

  it('exports every name the package does, and parses, reports errors and positions alike', async () => {
    const bundled = (await import(pathToFileURL(BUNDLE).href)) as typeof pkg;
    expect(Object.keys(bundled).sort()).toEqual(
      Object.keys(pkg)
        .filter((k) => k !== 'default' && k !== 'module.exports')
        .sort(),
    );
    const read = (y: typeof pkg) => {
      const lineCounter = new y.LineCounter();
      const doc = y.parseDocument(SOURCE, { lineCounter });
      return {
        js: doc.toJS(),
        errors: doc.errors.map((e) => [e.code, e.message, lineCounter.linePos(e.pos[0])]),
        out: y.stringify({ a: [1, 'x: y'] }),
      };
    };
    const viaBundle = read(bundled);
    expect(viaBundle.errors.length).toBeGreaterThan(0); // the unclosed flow sequence is reported
    expect(viaBundle).toEqual(read(pkg));
  });
});
