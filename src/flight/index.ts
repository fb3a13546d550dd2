export { FlightRecorder, type FlightRecorderOptions, type FlightSummary } from './recorder.js';
export {
  FlightService,
  type FlightServiceOptions,
  type TimelineDocument,
  type DiagnosticsDocument,
  type ReplayDocument,
} from './service.js';
export { diagnose, type Diagnostic, type FlightCategory, type FailureReason } from './diagnostics.js';
export * from './records.js';
export { recordRunEvents, listRecordedRuns, type RunRecording, type RecordedRun } from './run-listener.js';
