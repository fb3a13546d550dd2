/**
 * CONTRIBUTING.md draws the layering as the code has it: the table between the layering markers lists,
 * for each folder of src/, the folders its files import (relative imports, type-only ones included).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDoc, ROOT } from '../../helpers/markdown.js';

function folderImports(): Map<string, Set<string>> {
  const src = join(ROOT, 'src');
  const graph = new Map<string, Set<string>>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name)) {
        const from = relative(src, path).split('/')[0]!;
        if (!relative(src, path).includes('/')) continue; // src/index.ts re-exports all
        const edges = graph.get(from) ?? new Set<string>();
        graph.set(from, edges);
        const text = readFileSync(path, 'utf8');
        for (const m of text.matchAll(/(?:from|import\(|import)\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
          const to = relative(src, normalize(join(dirname(path), m[1]!))).split('/')[0]!;
          if (to !== from && !to.startsWith('..')) edges.add(to);
        }
      }
    }
  };
  walk(src);
  return graph;
}

function documented(): Map<string, Set<string>> {
  const text = readDoc('CONTRIBUTING.md');
  const table = /<!-- layering:start -->([\s\S]*?)<!-- layering:end -->/.exec(text)?.[1];
  expect(table, 'CONTRIBUTING.md has the layering table between its markers').toBeDefined();
  const rows = [...table!.matchAll(/^\| `(\w+)` \| (.*?) \|$/gm)];
  return new Map(
    rows.map((r) => [r[1]!, new Set(r[2] === '–' ? [] : r[2]!.split(', ').map((s) => s.trim()))] as const),
  );
}

const show = (g: Map<string, Set<string>>) =>
  Object.fromEntries(
    [...g].map(([k, v]) => [k, [...v].sort().join(', ') || '–']).sort(([a], [b]) => a.localeCompare(b)),
  );

describe('CONTRIBUTING.md layering', () => {
  it('lists, folder by folder, exactly what src/ imports', () => {
    expect(show(documented())).toEqual(show(folderImports()));
  });

  it('arena/ imports only the bottom layer (protocol, shared): targets, stores, flight and evolution import it, not the reverse', () => {
    const graph = folderImports();
    expect([...(graph.get('arena') ?? [])].sort()).toEqual(['protocol', 'shared']);
    for (const consumer of ['targets', 'events', 'flight', 'evolution']) expect(graph.get(consumer)).toContain('arena');
  });
});
