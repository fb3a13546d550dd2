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
