/**
 * The JSON documents printed by `--json` and written by `--report`. `schema_version`
 * stays 1 for additive changes and is bumped for breaking ones.
 */
import type { ScenarioReport, SurvivalReport } from '../../arena/report.js';

export const SCHEMA_VERSION = 1;

export interface ScenarioDocument {
  schema_version: typeof SCHEMA_VERSION;
  scenarios: ScenarioReport[];
}

export interface SurvivalDocument {
  schema_version: typeof SCHEMA_VERSION;
  survival: SurvivalReport;
}

export type ReportDocument = ScenarioDocument | SurvivalDocument;

export function scenarioDocument(scenarios: ScenarioReport[]): ScenarioDocument {
  return { schema_version: SCHEMA_VERSION, scenarios };
}

export function survivalDocument(survival: SurvivalReport): SurvivalDocument {
  return { schema_version: SCHEMA_VERSION, survival };
}

export function stringifyDocument(doc: ReportDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * JSON has no Infinity or NaN (JSON.stringify writes null). A copy of `value`
 * where each non-finite number is null and a sibling `<key>_why` says what it
 * was, so a reader never mistakes "not defined" or "infinite" for "missing".
 * Array entries get one `<key>_why` map of index → reason on the parent.
 */
export function withNonFiniteExplained<T>(value: T): T {
  const why = (n: number) => (Number.isNaN(n) ? 'NaN: not defined for these data' : n > 0 ? 'Infinity' : '-Infinity');
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map((x) => (typeof x === 'number' && !Number.isFinite(x) ? null : visit(x)));
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [key, x] of Object.entries(v)) {
      if (typeof x === 'number' && !Number.isFinite(x)) {
        out[key] = null;
        out[`${key}_why`] = why(x);
      } else if (Array.isArray(x) && x.some((e) => typeof e === 'number' && !Number.isFinite(e))) {
        out[key] = visit(x);
        out[`${key}_why`] = Object.fromEntries(
          x.flatMap((e, i) => (typeof e === 'number' && !Number.isFinite(e) ? [[String(i), why(e)]] : [])),
        );
      } else out[key] = visit(x);
    }
    return out;
  };
  return visit(value) as T;
}
