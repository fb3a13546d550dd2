// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${NAME} references in file text are what these tests are about
import { describe, expect, it } from 'vitest';
import { interpolateEnv } from '../../../src/shared/env-interpolation.js';

const ok = (text: string, env: Record<string, string | undefined> = {}) => {
  const r = interpolateEnv(text, env);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};
const problem = (text: string, env: Record<string, string | undefined> = {}) => {
  const r = interpolateEnv(text, env);
  if (r.ok) throw new Error(`accepted: ${r.value}`);
  return r.message;
};

describe('${NAME} environment references', () => {
  it('replaces a set variable, uses the default when it is unset or empty', () => {
    expect(ok('http://${HOST}:80/x', { HOST: 'h1' })).toBe('http://h1:80/x');
    expect(ok('${P:-7000}', { P: '9000' })).toBe('9000');
    expect(ok('${P:-7000}', {})).toBe('7000');
    expect(ok('${P:-7000}', { P: '' })).toBe('7000');
    expect(ok('${P:-}', {})).toBe('');
    expect(ok('a ${A} b ${B:-x}', { A: '1' })).toBe('a 1 b x');
  });

  it('adds a whole-number offset to the variable or its default', () => {
    expect(ok('${P:-7000 + 101}', {})).toBe('7101');
    expect(ok('${P:-7000 + 101}', { P: '9000' })).toBe('9101');
    expect(ok('${P+1}', { P: '10' })).toBe('11');
    expect(ok('127.0.0.1:${P:-7350 + 2}', {})).toBe('127.0.0.1:7352');
  });

  it('leaves bare $NAME, $. JSON paths and $${ escapes for the shell or the next reader', () => {
    expect(ok('PM2_HOME="$ARENA_RUN_DIR/pm2" exec x')).toBe('PM2_HOME="$ARENA_RUN_DIR/pm2" exec x');
    expect(ok('$.leader_id')).toBe('$.leader_id');
    expect(ok('echo $${HOME}', { HOME: '/root' })).toBe('echo ${HOME}');
    expect(interpolateEnv('plain', {})).toEqual({ ok: true, value: 'plain', changed: false });
  });

  it('refuses an unset variable without default, a bad name, an unclosed brace and an offset on a non-number', () => {
    expect(problem('${ARENA_NOPE}')).toMatch(/ARENA_NOPE is not set .*\$\{ARENA_NOPE:-value\}/);
    expect(problem('${1X}')).toMatch(/not a variable reference/);
    expect(problem('${}')).toMatch(/not a variable reference/);
    expect(problem('x ${P:-7000')).toMatch(/without a closing/);
    expect(problem('${P + 1}', { P: 'abc' })).toMatch(/P is "abc": "\+ 1" needs a whole number/);
    expect(problem('${P:-x + 1}', {})).toMatch(/P is "x" \(the default\)/);
  });
});
