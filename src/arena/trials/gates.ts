/**
 * The trials gates (DESIGN §14), one result per task so JUnit has a case each:
 * - `--min-pass-k 4:0.9`: the task's pass^4 under faults (clean when no scenario) is at least 0.9;
 * - `--max-cost-ratio 2`: the task's faulted cost is at most twice its clean cost, in money when every
 *   call was priced, else in tokens. Cost that was not measured fails the gate, saying so.
 */
import { passK } from './passk.js';
import type { GateResult, TrialsBody } from './report.js';

export interface MinPassK {
  k: number;
  value: number;
}

export interface TrialGates {
  minPassK?: readonly MinPassK[];
  maxCostRatio?: number;
}

const fmt = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(3));

export function evaluateGates(body: TrialsBody, gates: TrialGates): GateResult[] {
  const out: GateResult[] = [];
  for (const task of body.tasks) {
    const arm = task.faulted ?? task.clean;
    const armName = task.faulted ? 'under faults' : 'clean';
    for (const gate of gates.minPassK ?? []) {
      const value = passK(arm.n, arm.successes, gate.k);
      const name = `pass^${gate.k} >= ${gate.value}`;
      out.push(
        value === undefined
          ? { name, task: task.id, passed: false, detail: `${arm.n} trials cannot give pass^${gate.k}` }
          : {
              name,
              task: task.id,
              passed: value >= gate.value,
              detail: `pass^${gate.k} ${armName} = ${fmt(value)} (${arm.successes}/${arm.n} trials passed)`,
            },
      );
    }
    if (gates.maxCostRatio !== undefined) {
      const name = `cost ratio <= ${gates.maxCostRatio}`;
      const { usd, tokens } = task.cost;
      const [clean, faulted, unit] =
        usd.clean !== null && usd.faulted !== null
          ? [usd.clean, usd.faulted, 'usd']
          : [tokens.clean, tokens.faulted, 'tokens'];
      if (clean === null || faulted === null)
        out.push({ name, task: task.id, passed: false, detail: 'cost not measured' });
      else {
        // nothing spent clean: any spend under faults is an unbounded ratio
        const ratio = clean === 0 ? (faulted === 0 ? 1 : Number.POSITIVE_INFINITY) : faulted / clean;
        out.push({
          name,
          task: task.id,
          passed: ratio <= gates.maxCostRatio,
          detail: `faulted ${fmt(faulted)} ${unit} / clean ${fmt(clean)} ${unit} = ${Number.isFinite(ratio) ? fmt(ratio) : '∞'}`,
        });
      }
    }
  }
  return out;
}
