/**
 * `chaos-arena/stores`: where runs are kept (DESIGN §12). Event stores (memory, SQLite, PostgreSQL),
 * the run queue that workers take regress runs from, and the flight recorder that reads them back.
 * better-sqlite3 and pg are loaded only when such a store opens.
 */
export {
  ANY_VERSION,
  type EventStore,
  type StoredEvent,
  type NewEvent,
  type EventFilter,
  type SubscribeOptions,
  type EventQuery,
  type DataCondition,
  type QueryableEventStore,
} from '../arena/event-store.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from './memory.js';
export {
  SqliteEventStore,
  openSqliteEventStore,
  DEFAULT_DB_PATH,
  type SqliteEventStoreOptions,
  type SqliteStoredEvent,
  type SqliteEventFilter,
} from './sqlite.js';
export { openEventStore, type OpenedEventStore, type OpenEventStoreOptions } from './open.js';
export { PostgresEventStore, type PostgresEventStoreOptions, type PostgresStoredEvent } from './postgres.js';
export { PostgresRunQueue } from './run-queue.js';
export { createQueueArena } from '../arena/regression/queue.js';
export type { RunQueue, RunKind, ClaimedRun, QueuedRequest } from '../arena/queue/queue.js';
export type { TargetRef } from '../arena/queue/requests.js';
export { runWorker, type WorkerOptions, type WorkerEvent, type RunExecutors } from '../arena/queue/worker.js';

// the flight recorder: what happened during a run, and why it failed
export {
  FlightRecorder,
  FlightService,
  diagnose,
  recordRunEvents,
  listRecordedRuns,
  type FlightRecorderOptions,
  type FlightSummary,
  type FlightServiceOptions,
  type TimelineDocument,
  type DiagnosticsDocument,
  type ReplayDocument,
  type Diagnostic,
  type FlightCategory,
  type FailureReason,
  type RunRecording,
  type RecordedRun,
  type TimelineRecord,
  type DiagnosticRecord,
  type FailureEvidence,
  type FlightQuery,
} from '../flight/index.js';
