/**
 * Reading the project's markdown as the doc tests need it: which files are docs, their fenced
 * blocks with the marker comment before each, their links, and GitHub's heading anchors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** README, CONTRIBUTING, CHANGELOG and every .md under docs/, as paths relative to the root */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.md') ? [relative(ROOT, path)] : [];
    });
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...walk(join(ROOT, 'docs')).sort()];
}

export function readDoc(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

export interface Block {
  /** the fence's info string (`console`, `yaml`, …) */
  lang: string;
  /** the block's text, without the fences, ending with a newline */
  code: string;
  /** the HTML comment on the line just before the opening fence, if any (`tour`, `sample`) */
  marker?: string;
  /** 1-based line of the opening fence */
  line: number;
}

/** every fenced block of a markdown text, in order */
export function fencedBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(fence) && l.trim() === fence);
    if (end === -1) throw new Error(`unclosed code fence at line ${i + 1}`);
    const marker = /^<!--\s*([\w-]+)\s*-->$/.exec(lines[i - 1]?.trim() ?? '')?.[1];
    const code = lines.slice(i + 1, end).join('\n');
    blocks.push({ lang: open[2]!, code: code ? `${code}\n` : '', line: i + 1, ...(marker ? { marker } : {}) });
    i = end;
  }
  return blocks;
}

/** the text with fenced blocks, inline code spans and HTML comments blanked (same line count) */
function proseOnly(text: string): string {
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  return text
    .replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, blank)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/`[^`\n]*`/g, blank);
}

interface Link {
  target: string;
  line: number;
}

/** inline links and images: `[text](target)` and `![alt](target)`, outside code */
export function links(text: string): Link[] {
  const prose = proseOnly(text);
  const found: Link[] = [];
  for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const line = prose.slice(0, m.index).split('\n').length;
    found.push({ target: m[1]!, line });
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, duplicates numbered */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseOnlyKeepingHeadings(text).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** fenced blocks blanked, but inline code kept: a heading's anchor includes its code span's text */
function proseOnlyKeepingHeadings(text: string): string {
  return text.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, (s) => s.replace(/[^\n]/g, ' '));
}
