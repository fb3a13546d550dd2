import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readDoc } from '../../helpers/markdown.js';

describe('the protocol reference: the plain-Node target server', () => {
  it('shows examples/remote-target/server.mjs word for word (the file the conformance test runs)', () => {
    const doc = readDoc('docs/reference/target-protocol.md');
    const example = readFileSync(new URL('../../../examples/remote-target/server.mjs', import.meta.url), 'utf8');
    expect(doc).toContain(`\`\`\`js\n${example}\`\`\``);
  });
});
