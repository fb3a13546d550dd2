import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emitDocument } from '../../../src/cli/output/emit.js';
import { scenarioDocument } from '../../../src/cli/output/json.js';
import { UsageError } from '../../../src/shared/errors.js';
import { sampleScenario } from './sample-reports.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arena-emit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sink() {
  const chunks: string[] = [];
  return { write: (s: string) => chunks.push(s), text: () => chunks.join('') };
}

describe('emitDocument', () => {
  it('json mode: stdout is exactly the document, --report the same bytes, files in new directories', () => {
    const stdout = sink();
    const stderr = sink();
    const doc = scenarioDocument([sampleScenario()]);
    emitDocument(
      { stdout, stderr, cwd: dir },
      { kind: 'json', isColor: false },
      doc,
      () => 'TABLE',
      () => '<xml/>',
      { report: 'a/b/report.json', junit: 'j/out.xml' },
    );
    expect(JSON.parse(stdout.text())).toEqual(doc);
    expect(readFileSync(join(dir, 'a/b/report.json'), 'utf8')).toBe(stdout.text());
    expect(readFileSync(join(dir, 'j/out.xml'), 'utf8')).toBe('<xml/>');
    expect(stderr.text()).toContain('report written to a/b/report.json');
  });

  it('plain mode prints the table; an unwritable file is a usage error after the output was printed', () => {
    writeFileSync(join(dir, 'file'), 'x');
    const stdout = sink();
    const run = () =>
      emitDocument(
        { stdout, stderr: sink(), cwd: dir },
        { kind: 'plain', isColor: false },
        scenarioDocument([]),
        () => 'TABLE\n',
        () => '',
        { report: 'file/report.json' },
      );
    expect(run).toThrow(UsageError);
    expect(stdout.text()).toContain('TABLE');
    expect(run).toThrow(/cannot write the report to file\/report.json/);
  });
});
