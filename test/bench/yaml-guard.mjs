#!/usr/bin/env node
// Cost of the loader's guards (flow-depth lexer pass, iterative depth/alias walk) against what the
// loader did before them (parseDocument with a LineCounter, toJS with the library's alias count),
// on the same text, measured in the same run.
// Usage: npm run build && node test/bench/yaml-guard.mjs [runs]
import { LineCounter, parseDocument } from 'yaml';
import { readYamlDocument } from '../../dist/shared/yaml-source.js';

const runs = Number(process.argv[2] ?? 30);
const flowActions = Array.from(
  { length: 400 },
  (_, i) =>
    `  - { label: a${i}, delay: 10ms, action: { type: slow_agent, target_id: agent-2, metadata: { duration: 2s, delay: 50ms } } }`,
).join('\n');
const blockActions = Array.from(
  { length: 400 },
  (_, i) => `  - label: a${i}\n    delay: 10ms\n    action:\n      type: kill_agent\n      target_id: agent-2`,
).join('\n');
const cases = {
  'flow style, 400 actions': `name: big\nactions:\n${flowActions}\n`,
  'block style, 400 actions': `name: big\nactions:\n${blockActions}\n`,
};

function median(fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

for (const [name, text] of Object.entries(cases)) {
  for (let i = 0; i < 5; i++) readYamlDocument(text); // warm up
  const baseline = median(() =>
    parseDocument(text, { lineCounter: new LineCounter(), prettyErrors: true, uniqueKeys: true }).toJS({
      maxAliasCount: 50,
    }),
  );
  const guarded = median(() => readYamlDocument(text));
  console.log(
    `${name} (${(text.length / 1024).toFixed(0)} KiB): loader before the guards ${baseline.toFixed(2)} ms, with them ${guarded.toFixed(2)} ms, ratio ${(guarded / baseline).toFixed(2)}×`,
  );
}
