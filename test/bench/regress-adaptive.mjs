#!/usr/bin/env node
// Adaptive regress against the fixed-n design, by simulation on the real RegressionTester.
// A synthetic RegressionArena draws normal scores (a per-seed effect shared by both arms, plus
// independent noise per arm), so a trial is pure computation: deterministic, seeded, machine-load free.
// For each design: false-positive rate (true effect 0), power and mean runs per arm (true effect
// 0.5 sd of the paired difference), each over TRIALS trials with a 95% interval.
// The baseline is the fixed-n paired t-test with the same alpha and power; the ratio is mean runs / n.
// Usage: npm run build && node test/bench/regress-adaptive.mjs [trials=4000]
import { RegressionTester } from '../../dist/arena/regression/tester.js';
import { createRandom } from '../../dist/shared/random.js';

const TRIALS = Number(process.argv[2] ?? 4000);
const ALPHA = 0.05;
const NOISE = 3; // per-arm noise sd; the paired difference then has sd 3√2
const EFFECT_SD = 0.5;
const EFFECT = EFFECT_SD * NOISE * Math.SQRT2;

function normal(random) {
  const u = 1 - random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

/** each run's score depends only on its seed and arm: run i of both arms shares the seed effect */
function syntheticArena() {
  return {
    async runArm({ arm, seed, strategy }) {
      const shared = createRandom(seed);
      const seedEffect = 80 + 5 * normal(shared);
      const own = createRandom((seed * 2 + (arm === 'baseline' ? 0 : 1)) >>> 0);
      return { value: seedEffect + strategy.bonus + NOISE * normal(own) };
    },
  };
}
const scorer = { name: 'synthetic', score: (report) => report.value };
const workload = { survival: { duration_ms: 1, interval_ms: 1 } };

async function simulate(design, effect, seedBase) {
  const tester = new RegressionTester(syntheticArena(), scorer);
  let rejected = 0;
  const used = [];
  let wrongSign = 0;
  for (let i = 0; i < TRIALS; i++) {
    const result = await tester.run({
      baseline: { bonus: 0 },
      candidate: { bonus: effect },
      workload,
      alpha: ALPHA,
      seed: seedBase + i,
      parallelism: 64,
      ...design,
    });
    const significant = result.decision === 'candidate better' || result.decision === 'candidate worse';
    if (significant) rejected++;
    if (significant && effect > 0 && result.decision !== 'candidate better') wrongSign++;
    used.push(result.runs_used);
  }
  const meanRuns = used.reduce((a, b) => a + b, 0) / TRIALS;
  const variance = used.reduce((a, b) => a + (b - meanRuns) ** 2, 0) / (TRIALS - 1);
  return {
    rate: rejected / TRIALS,
    meanRuns,
    runsHalfWidth: (1.96 * Math.sqrt(variance)) / Math.sqrt(TRIALS),
    wrongSign,
  };
}

/** Wilson 95% interval of a proportion */
function wilson(p, n) {
  const z = 1.959964;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [centre - half, centre + half];
}
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const ci = ([lo, hi]) => `[${pct(lo)}, ${pct(hi)}]`;

// two power targets; each adaptive design's maxRuns is chosen so that its power is at least the fixed design's
const groups = [
  {
    power: 0.9,
    fixedN: 44, // paired t-test, alpha 0.05 two-sided, d = 0.5: power 0.90
    designs: [
      [
        "O'Brien-Fleming 5+5..45",
        { adaptive: true, minAdaptiveRuns: 5, adaptiveBatchSize: 5, maxRuns: 45, spending: 'obrien-fleming' },
      ],
      [
        'Pocock 12+4..54',
        { adaptive: true, minAdaptiveRuns: 12, adaptiveBatchSize: 4, maxRuns: 54, spending: 'pocock' },
      ],
      [
        'Pocock 12+4..54 + futility 0.1',
        {
          adaptive: true,
          minAdaptiveRuns: 12,
          adaptiveBatchSize: 4,
          maxRuns: 54,
          spending: 'pocock',
          futilityPower: 0.1,
        },
      ],
    ],
  },
  {
    power: 0.8,
    fixedN: 34, // power 0.81
    designs: [
      [
        "O'Brien-Fleming 5+5..35",
        { adaptive: true, minAdaptiveRuns: 5, adaptiveBatchSize: 5, maxRuns: 35, spending: 'obrien-fleming' },
      ],
      ['Pocock 8+4..44', { adaptive: true, minAdaptiveRuns: 8, adaptiveBatchSize: 4, maxRuns: 44, spending: 'pocock' }],
    ],
  },
];

console.log(
  `regress --adaptive by simulation: ${TRIALS} trials per cell, alpha ${ALPHA}, true effect ${EFFECT_SD} sd of the paired difference`,
);
console.log(
  'design | false positives (effect 0) [95%] | power (effect 0.5 sd) [95%] | runs/arm at 0.5 sd [95%] | runs/arm at 0 | ratio runs vs fixed | power vs fixed',
);
const started = performance.now();
for (const group of groups) {
  console.log(`-- target power ${group.power}: baseline fixed-n paired t-test, n = ${group.fixedN} runs per arm`);
  let fixedPower;
  for (const [name, design] of [[`fixed n = ${group.fixedN} (baseline)`, { runs: group.fixedN }], ...group.designs]) {
    const h0 = await simulate(design, 0, 1_000_000);
    const h1 = await simulate(design, EFFECT, 2_000_000);
    if (fixedPower === undefined) fixedPower = h1.rate;
    const [lo, hi] = [h1.meanRuns - h1.runsHalfWidth, h1.meanRuns + h1.runsHalfWidth];
    console.log(
      `${name} | ${pct(h0.rate)} ${ci(wilson(h0.rate, TRIALS))} | ${pct(h1.rate)} ${ci(wilson(h1.rate, TRIALS))}${h1.wrongSign ? ` (${h1.wrongSign} wrong sign)` : ''}` +
        ` | ${h1.meanRuns.toFixed(1)} [${lo.toFixed(1)}, ${hi.toFixed(1)}] | ${h0.meanRuns.toFixed(1)}` +
        ` | ${(h1.meanRuns / group.fixedN).toFixed(3)}x [${(lo / group.fixedN).toFixed(3)}, ${(hi / group.fixedN).toFixed(3)}]` +
        ` | ${h1.rate - fixedPower >= 0 ? '+' : ''}${pct(h1.rate - fixedPower)}`,
    );
  }
}
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
