export { FlightRecorder, type FlightRecorderOptions, type FlightSummary } from './recorder.js';
export { FlightService, toQuery, type FlightServiceOptions, type TimelineDocument, type DiagnosticsDocument, type ReplayDocument } from './service.js';
export { diagnose, DIAGNOSTIC_TABLE, FLIGHT_CATEGORIES, type Diagnostic, type DiagnosticRule, type FlightCategory, type FailureReason } from './diagnostics.js';
export * from './records.js';
export { recordRunEvents, listRecordedRuns, RUNS_STREAM, type RunRecording, type RecordedRun } from './run-listener.js';
