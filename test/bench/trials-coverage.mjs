// The pass^k interval's coverage (DESIGN §14): 2,000 simulated tasks per trial count, per-trial success
// rate p uniform on (0, 1); prints, per n and k, the share of tasks whose 95% interval held the true p^k.
//   npm run build && node test/bench/trials-coverage.mjs [seed]
import { simulateCoverage } from '../../dist/arena/trials/coverage.js';
import { createRandom } from '../../dist/shared/random.js';

const seed = Number(process.argv[2] ?? 33);
const ks = [1, 2, 4, 8];
for (const n of [8, 16, 32]) {
  const { coverage } = simulateCoverage(createRandom(seed).fork(`n=${n}`), 2000, n, ks);
  const cells = Object.entries(coverage).map(([k, v]) => `k=${k} ${(v * 100).toFixed(1)}%`);
  console.log(`n=${n} (2,000 tasks, seed ${seed}): ${cells.join('  ')}`);
}
