/**
 * "Adding a fault type is a compile error until every table handles it": this test adds one.
 * It type-checks the modules that hold a per-fault table (a `Record<ActionType, …>` or a switch
 * ending in a `never` check) against a copy of src/arena/action.ts whose ACTION_TYPES has one
 * more entry, and expects every one of them to fail, each error naming the new type. A table
 * typed loosely (`Record<string, …>`, `Partial<…>`, a `default:` branch) would compile and fail
 * this test. The web console is checked with its own compiler options (preact, DOM).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const ACTION_FILE = resolve(ROOT, 'src/arena/action.ts');
const NEW_TYPE = 'arena_test_new_fault';

/** the modules with a table keyed by fault type, and the table */
const TABLES: Record<string, string> = {
  'src/arena/action.ts': 'FINDS_OWN_TARGET (self-targeting faults)',
  'src/arena/actions.ts': 'ACTION_PARAMETERS (the metadata each fault takes)',
  'src/arena/measure/disruptive.ts': 'FAULT_DAMAGE (what must recover, which aspect)',
  'src/arena/injector.ts': 'Injector.apply (the switch that applies a fault)',
  'src/arena/survival/plan.ts': 'planAction (how survival picks targets and metadata)',
  'src/evolution/proposals.ts': 'PROPOSAL_RULES (strategy fixes per failed fault)',
  'src/flight/diagnostics.ts': 'DIAGNOSTIC_TABLE (root causes per fault)',
  'src/targets/protocol-server.ts': 'PARAMS (wire params per fault)',
  'src/targets/remote/conformance.ts': 'PARAMS (the conformance kit’s sample params)',
  'src/server/arena-fault-routes.ts': 'FAULT_ROUTES (the HTTP route per fault)',
};
const WEB_TABLES: Record<string, string> = {
  'src/web/components/InjectPanel.tsx': 'FORM (the console’s inject form per fault)',
};

function withNewFaultType(text: string): string {
  const changed = text.replace(/(export const ACTION_TYPES = \[[^\]]*?)(\] as const;)/, `$1  '${NEW_TYPE}',\n$2`);
  if (changed === text) throw new Error('ACTION_TYPES not found in src/arena/action.ts: update this test with it');
  return changed;
}

/** type errors per file when ACTION_TYPES has one more entry */
function errorsWithNewType(tsconfig: string, files: string[]): Record<string, string[]> {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(ROOT, tsconfig),
    { noEmit: true },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, ...rest) =>
    resolve(fileName) === ACTION_FILE
      ? ts.createSourceFile(fileName, withNewFaultType(readFileSync(ACTION_FILE, 'utf8')), languageVersion)
      : read(fileName, languageVersion, ...rest);
  const program = ts.createProgram({ rootNames: files.map((f) => resolve(ROOT, f)), options: parsed.options, host });
  const out: Record<string, string[]> = {};
  for (const file of files) {
    const source = program.getSourceFile(resolve(ROOT, file));
    if (!source) throw new Error(`${file} is not in the program`);
    out[file] = program.getSemanticDiagnostics(source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return out;
}

describe('a new fault type', () => {
  // two type-checks of part of the project: seconds of CPU, more on a loaded machine
  it('does not compile until every per-fault table handles it', { timeout: 120_000 }, () => {
    const errors = {
      ...errorsWithNewType('tsconfig.json', Object.keys(TABLES)),
      ...errorsWithNewType('src/web/tsconfig.json', Object.keys(WEB_TABLES)),
    };
    const unguarded = Object.entries({ ...TABLES, ...WEB_TABLES })
      .filter(([file]) => errors[file]!.length === 0)
      .map(([file, table]) => `${file}: ${table}`);
    expect(unguarded, 'tables that would silently accept a new fault type').toEqual([]);
    for (const [file, messages] of Object.entries(errors)) {
      // each error is about the new type, not something else broken in the file
      for (const message of messages) expect(message, file).toContain(NEW_TYPE);
    }
  });
});
