/** `arena schema <name>` prints the published JSON Schema of each file kind; an unknown name is a usage error naming the choices. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arena, REPO_ROOT } from '../helpers/cli.js';

describe('arena schema', () => {
  it.each(['scenario', 'strategy', 'target', 'workflow', 'client-config', 'http'])(
    'prints schemas/%s.schema.json',
    async (name) => {
      const r = await arena(['schema', name]);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(
        JSON.parse(readFileSync(join(REPO_ROOT, 'schemas', `${name}.schema.json`), 'utf8')),
      );
    },
  );

  it('an unknown name exits 2 and lists the names', async () => {
    const r = await arena(['schema', 'scenarios']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'scenarios' is invalid");
    expect(r.stderr).toContain('scenario, strategy, target, workflow, client-config, http');
    expect(r.stdout).toBe('');
  });

  it('the shell completion offers the names', async () => {
    const r = await arena(['completion', 'bash']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('scenario strategy target workflow client-config http');
  });
});
