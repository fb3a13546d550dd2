/**
 * `${NAME}` environment references in file values, the form docker-compose and
 * GitHub Actions users know, so one file serves several machines (an example
 * fleet on other ports, a staging URL). Forms:
 *   `${NAME}`            the variable; an error when it is unset
 *   `${NAME:-default}`   the variable, or `default` when it is unset or empty
 *   `${NAME + 101}`, `${NAME:-7000 + 101}`   a whole number plus an offset (ports derived from one base)
 *   `$${`                a literal `${` (e.g. for a shell command that expands it itself)
 * A bare `$NAME` is left alone: start commands are shell, and the shell expands it at run time.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

export type Interpolated = { ok: true; value: string; changed: boolean } | { ok: false; message: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OFFSET = /^(.*?)\s*\+\s*(\d+)$/s;

/** `text` with every reference replaced, or the first problem in it (worded for the person editing the file) */
export function interpolateEnv(text: string, env: Environment): Interpolated {
  if (!text.includes('$')) return { ok: true, value: text, changed: false };
  let out = '';
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf('$', i);
    if (at === -1) {
      out += text.slice(i);
      break;
    }
    out += text.slice(i, at);
    if (text.startsWith('$${', at)) {
      out += '${';
      changed = true;
      i = at + 3;
      continue;
    }
    if (!text.startsWith('${', at)) {
      out += '$';
      i = at + 1;
      continue;
    }
    const end = text.indexOf('}', at + 2);
    if (end === -1) return { ok: false, message: `"\${" without a closing "}" (write "$\${" for a literal "\${")` };
    const one = resolve(text.slice(at + 2, end), env);
    if (!one.ok) return one;
    out += one.value;
    changed = true;
    i = end + 1;
  }
  return { ok: true, value: out, changed };
}

function resolve(inner: string, env: Environment): Interpolated {
  const offsetMatch = OFFSET.exec(inner);
  const reference = offsetMatch ? offsetMatch[1]! : inner;
  const sep = reference.indexOf(':-');
  const name = (sep === -1 ? reference : reference.slice(0, sep)).trim();
  if (!NAME.test(name))
    return {
      ok: false,
      message: `"\${${inner}}" is not a variable reference (expected \${NAME}, \${NAME:-default} or \${NAME:-7000 + 1})`,
    };
  const set = env[name];
  let value: string;
  if (set !== undefined && set !== '') value = set;
  else if (sep !== -1) value = reference.slice(sep + 2).trim();
  else return { ok: false, message: `environment variable ${name} is not set (or give a default: \${${name}:-value})` };
  if (!offsetMatch) return { ok: true, value, changed: true };
  const base = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(base))
    return {
      ok: false,
      message: `${name} is ${JSON.stringify(value)}${set ? '' : ' (the default)'}: "+ ${offsetMatch[2]}" needs a whole number`,
    };
  return { ok: true, value: String(base + Number(offsetMatch[2])), changed: true };
}
