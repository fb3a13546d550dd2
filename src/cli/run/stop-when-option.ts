/**
 * `--stop-when`: the keys of a scenario's `config.stop_when`, given inline as YAML or JSON
 * (`--stop-when '{availability_below: {value: 80, window: 5s}}'`) or read from a file with `@`
 * (`--stop-when @stop.yaml`). Bad input is exit 2 before anything starts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseStopWhen } from '../../arena/safety/stop-when.js';
import { UsageError, errorMessage } from '../../shared/errors.js';
import { isJsonPath, readYamlDocument } from '../../shared/yaml-source.js';
import type { StopWhen } from '../../arena/safety/types.js';

export function readStopWhenOption(value: string, cwd: string): StopWhen {
  const file = value.startsWith('@') ? value.slice(1) : undefined;
  let text = value;
  if (file !== undefined) {
    try {
      text = readFileSync(resolve(cwd, file), 'utf8');
    } catch (err) {
      throw new UsageError(`--stop-when ${value}: cannot read ${file}: ${errorMessage(err)}`, {
        code: 'invalid_stop_when',
      });
    }
  }
  const where = file ?? '--stop-when';
  const doc = readYamlDocument(text, undefined, { json: isJsonPath(file) });
  if (!doc.ok) {
    const why =
      doc.reason === 'syntax'
        ? doc.errors.map((e) => `${e.line !== undefined ? `line ${e.line}: ` : ''}${e.message}`).join('; ')
        : doc.reason === 'too_large'
          ? `${doc.bytes} bytes, over the ${doc.limit}-byte limit`
          : doc.detail;
    throw new UsageError(`${where}: not YAML or JSON: ${why}`, { code: 'invalid_stop_when' });
  }
  return parseStopWhen(doc.value, file === undefined ? '--stop-when' : `${file}`);
}
