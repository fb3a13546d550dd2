/**
 * The docs hold together: every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md and
 * docs/**.md points at a file (or folder) that exists, and every #anchor at a heading of its target;
 * the README stays a front door (at most 400 lines).
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, headingAnchors, links, readDoc, ROOT } from '../../helpers/markdown.js';

const FILES = docFiles();

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of links(readDoc(file))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
    const [path, anchor] = target.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    const where = `${file}:${line} → ${target}`;
    if (resolved.startsWith('..') || !existsSync(join(ROOT, resolved))) {
      broken.push(`${where}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md') || statSync(join(ROOT, resolved)).isDirectory()) {
      broken.push(`${where}: an anchor into a file that is not markdown`);
      continue;
    }
    if (!headingAnchors(readDoc(resolved)).has(decodeURIComponent(anchor)))
      broken.push(`${where}: no heading #${anchor} in ${resolved}`);
  }
  return broken;
}

describe('docs', () => {
  it('are the README, CONTRIBUTING, CHANGELOG and a docs/ tree of guides, references and explanations', () => {
    for (const f of [
      'docs/README.md',
      'docs/benchmarks.md',
      'docs/guides/scenarios.md',
      'docs/guides/your-own-system.md',
      'docs/guides/proxies.md',
      'docs/guides/ci.md',
      'docs/guides/many-machines.md',
      'docs/guides/llm-agents.md',
      'docs/reference/cli.md',
      'docs/reference/http-api.md',
      'docs/reference/target-protocol.md',
      'docs/reference/files.md',
      'docs/reference/environment.md',
      'docs/explanations/score.md',
      'docs/explanations/statistics.md',
      'docs/explanations/regress.md',
    ])
      expect(FILES).toContain(f);
  });

  it.each(FILES)('%s: every relative link and #anchor resolves', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('every docs/ page is reachable from the docs index', () => {
    const index = links(readDoc('docs/README.md')).map((l) => normalize(join('docs', l.target.split('#')[0]!)));
    const pages = FILES.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md');
    expect(pages.filter((p) => !index.includes(p))).toEqual([]);
  });

  it('the README is a front door: at most 400 lines', () => {
    expect(readDoc('README.md').split('\n').length).toBeLessThanOrEqual(400);
  });

  it('the environment reference names every ARENA_ variable the code reads', () => {
    const env = readDoc('docs/reference/environment.md');
    for (const name of ['ARENA_STORE', 'ARENA_TARGET_TOKEN', 'ARENA_PROXY_TOKEN', 'ARENA_API_KEY', 'ARENA_DEBUG'])
      expect(env).toContain(`\`${name}\``);
  });

  // the checker itself: a broken link and a missing anchor are caught, code is not read as links
  it('catches a missing file and a missing anchor, and ignores links inside code', async () => {
    const { headingAnchors: anchors, links: find } = await import('../../helpers/markdown.js');
    const text = '# A `b` — c\n\n[x](nope.md) `[y](z.md)`\n\n```md\n[w](v.md)\n```\n';
    expect(find(text).map((l) => l.target)).toEqual(['nope.md']);
    expect([...anchors(text)]).toEqual(['a-b--c']);
    expect(brokenLinks('README.md').length).toBe(0);
  });
});
