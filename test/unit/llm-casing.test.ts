/**
 * One casing of the LLM acronym in identifiers (issue 37, STYLE "one spelling"): `Llm` inside a name
 * (`LlmProxy`, `createLlmClient`), as the rest of the code writes acronyms (`Tcp`, `Json`, `Cli`), and
 * `LLM` only in CONSTANT_CASE (`LLM_ERROR_TYPES`). Identifiers only: prose, strings and product names
 * (vLLM) in comments keep the usual spelling. Biome's useNamingConvention would enforce this for every
 * acronym at once, far more than this one rename; this scan keeps the one that was mixed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `LLM` in an identifier that is not CONSTANT_CASE */
function hasWrongLlmCasing(name: string): boolean {
  return name.includes('LLM') && !/^[A-Z0-9_]+$/.test(name);
}

/** every identifier of a file that spells the acronym `LLM` inside a camel- or PascalCase name */
function wrongIdentifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && hasWrongLlmCasing(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(SRC, file)}:${line + 1} ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('LLM casing in identifiers', () => {
  it('tells the two spellings apart', () => {
    expect(['LLMClient', 'createLLMClient', 'isLLM', 'LLMs'].map(hasWrongLlmCasing)).toEqual([true, true, true, true]);
    expect(['LlmClient', 'createLlmClient', 'LLM_ERROR_TYPES', 'LLM', 'llm'].map(hasWrongLlmCasing)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('src/ writes Llm inside names and LLM only in CONSTANT_CASE', () => {
    const wrong = sourceFiles(SRC).flatMap(wrongIdentifiers);
    expect(wrong, 'rename these to the Llm spelling (LLMClient → LlmClient)').toEqual([]);
  });
});
