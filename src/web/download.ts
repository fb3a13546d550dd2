/** Saves a JSON document as a file: a Blob URL, so nothing goes back to the server. */
export function downloadJson(name: string, value: unknown): void {
  const blob = new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** a file name from a report: leader-failover-2026-11-23T06-21-40.json */
export function reportFileName(prefix: string, startedAt: unknown): string {
  const stamp =
    typeof startedAt === 'string' ? startedAt.replace(/[:.]/g, '-').replace(/-\d+Z$/, '') : String(Date.now());
  return `${prefix.replace(/[^\w.-]+/g, '-')}-${stamp}.json`;
}
