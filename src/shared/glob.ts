/** Tool-name globs (`write_*`, `send_?mail`): `*` any run of characters, `?` one; the rest literal. */
export function globRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export function matchesAnyGlob(name: string, globs: readonly string[]): boolean {
  return globs.some((g) => globRegExp(g).test(name));
}
