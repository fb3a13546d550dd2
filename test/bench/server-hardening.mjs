// Cost and effect of the server hardening (npm run build first):
//  1. whole-body validation: JSON.parse + 64-level check + the strict zod schema, against the same
//     parse without the schema (the baseline), on a typical /api/v1/llm/chat body;
//  2. the regex evaluator on RE2 against V8's backtracking engine on a catastrophic pattern, for
//     growing inputs (V8 doubles per character; RE2 stays linear).
import { performance } from 'node:perf_hooks';
import { parseJsonBody } from '../../dist/shared/json-body.js';
import { id, int, parseWith, text, z } from '../../dist/server/body.js';
import { compileUserPattern } from '../../dist/runtime/services/eval.js';

const Message = z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: text(200_000) });
const Chat = z.strictObject({
  messages: z.array(Message).min(1).max(1000),
  model: id().optional(),
  max_tokens: int(1, 1_000_000).optional(),
});
const body = JSON.stringify({
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'What is 2 * (3 + 4)? '.repeat(4) },
  ],
  max_tokens: 64,
});

function opsPerSec(fn, ms = 1500) {
  for (let i = 0; i < 2000; i++) fn();
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < ms) {
    for (let i = 0; i < 500; i++) fn();
    n += 500;
  }
  return n / ((performance.now() - t0) / 1000);
}

const base = opsPerSec(() => parseJsonBody(body));
const validated = opsPerSec(() => parseWith(Chat, parseJsonBody(body)));
console.log(`body parse only:            ${Math.round(base).toLocaleString()} ops/s`);
console.log(`body parse + zod schema:    ${Math.round(validated).toLocaleString()} ops/s`);
console.log(
  `validation cost ratio:      ${(base / validated).toFixed(2)}x the parse alone (${(1e6 / validated - 1e6 / base).toFixed(2)} µs per body)`,
);

console.log('\nregex (a+)+$ on "a"*n + "!":');
const evil = '(a+)+$';
const re2 = compileUserPattern(evil, '');
for (const n of [18, 20, 22, 24]) {
  const input = `${'a'.repeat(n)}!`;
  let t0 = performance.now();
  new RegExp(evil).test(input);
  const v8 = performance.now() - t0;
  t0 = performance.now();
  re2.matcher(input).find();
  const r = performance.now() - t0;
  console.log(
    `  n=${n}: V8 ${v8.toFixed(1)} ms, RE2 ${r.toFixed(3)} ms, ratio ${(v8 / Math.max(r, 0.001)).toFixed(0)}x`,
  );
}
const big = `${'a'.repeat(1_000_000)}!`;
const t0 = performance.now();
re2.matcher(big).find();
console.log(`  RE2 on a 1 MB output: ${(performance.now() - t0).toFixed(0)} ms (V8 would not finish)`);
