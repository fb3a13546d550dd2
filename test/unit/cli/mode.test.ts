import { describe, expect, it } from 'vitest';
import { resolveOutputMode } from '../../../src/cli/output/mode.js';

const tty = { write: () => true, isTTY: true };
const pipe = { write: () => true };

describe('resolveOutputMode', () => {
  it('draws the live view only on a terminal outside CI', () => {
    expect(resolveOutputMode({}, { stdout: tty, stderr: tty, env: {} })).toEqual({ kind: 'tty', isColor: true });
    expect(resolveOutputMode({}, { stdout: tty, stderr: tty, env: { CI: 'true' } }).kind).toBe('plain');
    expect(resolveOutputMode({}, { stdout: pipe, stderr: tty, env: {} }).kind).toBe('plain');
    expect(resolveOutputMode({ tui: false }, { stdout: tty, stderr: tty, env: {} }).kind).toBe('plain');
    expect(resolveOutputMode({ json: true }, { stdout: tty, stderr: tty, env: {} }).kind).toBe('json');
  });

  it('turns colour off for NO_COLOR, --no-color and non-terminals', () => {
    expect(resolveOutputMode({}, { stdout: tty, stderr: tty, env: { NO_COLOR: '1' } }).isColor).toBe(false);
    expect(resolveOutputMode({ color: false }, { stdout: tty, stderr: tty, env: {} }).isColor).toBe(false);
    expect(resolveOutputMode({}, { stdout: pipe, stderr: pipe, env: {} }).isColor).toBe(false);
    expect(resolveOutputMode({}, { stdout: pipe, stderr: tty, env: {} }).isColor).toBe(false);
    expect(resolveOutputMode({ tui: false }, { stdout: tty, stderr: tty, env: {} }).isColor).toBe(true);
    expect(resolveOutputMode({}, { stdout: tty, stderr: tty, env: { NO_COLOR: '' } }).isColor).toBe(true);
  });
});

describe('FORCE_COLOR', () => {
  it('turns colour on when piped, at the level it names, over NO_COLOR but not over --no-color', () => {
    expect(resolveOutputMode({}, { stdout: pipe, stderr: pipe, env: { FORCE_COLOR: '1' } })).toEqual({
      kind: 'plain',
      isColor: true,
      forcedLevel: 1,
    });
    expect(resolveOutputMode({}, { stdout: pipe, stderr: pipe, env: { FORCE_COLOR: '' } }).forcedLevel).toBe(1);
    expect(resolveOutputMode({}, { stdout: pipe, stderr: pipe, env: { FORCE_COLOR: '3' } }).forcedLevel).toBe(3);
    expect(resolveOutputMode({ json: true }, { stdout: pipe, stderr: pipe, env: { FORCE_COLOR: '2' } })).toEqual({
      kind: 'json',
      isColor: true,
      forcedLevel: 2,
    });
    expect(
      resolveOutputMode({}, { stdout: pipe, stderr: pipe, env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).isColor,
    ).toBe(true);
    expect(resolveOutputMode({ color: false }, { stdout: pipe, stderr: pipe, env: { FORCE_COLOR: '1' } }).isColor).toBe(
      false,
    );
  });

  it('FORCE_COLOR=0 or false turns colour off even on a terminal', () => {
    expect(resolveOutputMode({}, { stdout: tty, stderr: tty, env: { FORCE_COLOR: '0' } }).isColor).toBe(false);
    expect(resolveOutputMode({}, { stdout: tty, stderr: tty, env: { FORCE_COLOR: 'false' } }).isColor).toBe(false);
  });
});
