import type { ConfigProblem } from './config.js';

export function formatConfigProblems(problems: ConfigProblem[], source?: string): string {
  return problems
    .map((p) => {
      const where = [source, p.line !== undefined ? `${p.line}:${p.column ?? 1}` : undefined].filter(Boolean).join(':');
      return `  ${where ? `${where} ` : ''}${p.path || '(root)'}: ${p.message}`;
    })
    .join('\n');
}
