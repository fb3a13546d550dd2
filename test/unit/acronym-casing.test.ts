/**
 * One casing of each acronym in identifiers (issue 37, STYLE "one spelling"): an acronym inside a name is
 * written like a word (`LlmProxy`, `createMcpSession`, `TcpProxy`, `CliContext`), and in capitals only in
 * CONSTANT_CASE (`LLM_ERROR_TYPES`, `MCP_FAULT_TYPES`). Identifiers only: prose, strings, wire fields and
 * product names (vLLM) keep the usual spelling. Names that a dependency or the platform defines
 * (`fileURLToPath`, the MCP SDK's `StreamableHTTPClientTransport`) are not ours to rename and are listed.
 * Biome's useNamingConvention would enforce this for every acronym at once, far more than these renames;
 * this scan keeps the ones that were made consistent.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIRS = ['src', 'test'].map((dir) => join(ROOT, dir));

/** the acronyms kept in one casing */
const ACRONYMS = ['LLM', 'MCP', 'TCP', 'CLI', 'SSE', 'JSON', 'API', 'HTTP', 'URL'];

/** names defined by dependencies or the platform, spelled their way */
const FOREIGN = new Set([
  // the MCP SDK
  'StreamableHTTPClientTransport',
  'StreamableHTTPServerTransport',
  'StreamableHTTPError',
  'JSONRPCMessage',
  // zod
  'toJSONSchema',
  // the OpenAI and Anthropic SDKs
  'APIError',
  'APIConnectionTimeoutError',
  'APIUserAbortError',
  'baseURL',
  // Node and the browser
  'fileURLToPath',
  'pathToFileURL',
  'URLSearchParams',
  'createObjectURL',
  'revokeObjectURL',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** an acronym in capitals inside an identifier that is not CONSTANT_CASE and not someone else's */
function hasWrongCasing(name: string): boolean {
  if (/^[A-Z0-9_]+$/.test(name) || FOREIGN.has(name)) return false;
  return ACRONYMS.some((acronym) => name.includes(acronym));
}

/** every identifier of a file that spells an acronym in capitals inside a camel- or PascalCase name */
function wrongIdentifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && hasWrongCasing(node.text)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(ROOT, file)}:${line + 1} ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('acronym casing in identifiers', () => {
  it('tells the two spellings apart', () => {
    const wrong = [
      'LLMClient',
      'createLLMClient',
      'isLLM',
      'LLMs',
      'MCPSession',
      'disconnectMCP',
      'sendJSON',
      'openSSE',
    ];
    expect(wrong.filter((name) => !hasWrongCasing(name))).toEqual([]);
    const right = ['LlmClient', 'createMcpSession', 'LLM_ERROR_TYPES', 'MCP', 'sendJson', 'SseStream', 'fileURLToPath'];
    expect(right.filter(hasWrongCasing)).toEqual([]);
  });

  it('src/ and test/ write acronyms like words inside names and in capitals only in CONSTANT_CASE', () => {
    const wrong = DIRS.flatMap(sourceFiles).flatMap(wrongIdentifiers);
    expect(wrong, 'rename these to the word spelling (LLMClient → LlmClient, MCPSession → McpSession)').toEqual([]);
  });
});
