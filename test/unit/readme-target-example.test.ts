import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('README: the plain-Node target server', () => {
  it('shows examples/remote-target/server.mjs word for word (the file the conformance test runs)', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const example = readFileSync(new URL('../../examples/remote-target/server.mjs', import.meta.url), 'utf8');
    expect(readme).toContain(`\`\`\`js\n${example}\`\`\``);
  });
});
