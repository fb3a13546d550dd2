/**
 * The shapes of GET /arena/shrinks (src/server/shrink-route.ts), read from the
 * event store by shrink-progress.ts and shown by the web console's Shrink
 * view, which imports these types (so nothing here may import a runtime module).
 */
import type { CertificateEntry } from '../arena/shrink/shrink.js';

export interface ShrinkPhaseRuns {
  runs: number;
  candidates: number;
}

export interface ShrinkJob {
  id: string;
  /**
   * running: the search goes on; shrunk: a minimal scenario was written; not_reproduced: the failure did
   * not reproduce, nothing to shrink; interrupted: stopped (Ctrl-C) before the end; error: stopped by an
   * error; abandoned: no last word and silent for 30 s (killed, host lost)
   */
  status: 'running' | 'shrunk' | 'not_reproduced' | 'interrupted' | 'error' | 'abandoned';
  /** the report file shrunk, or `survival --seed N` */
  source?: string;
  /** the system the candidates run on: the target file, or the embedded runtime and its strategy */
  target?: string;
  seed?: number;
  /** the subset search: quickxplain or greedy */
  search?: string;
  /** the failure each candidate must repeat: failed checks, invariants, expectations or gates, and fault families */
  signature?: { failures: string[]; families: string[] };
  /** faults in the failing run */
  original_faults: number;
  /** faults in the smallest failing schedule confirmed so far (the original's count until one is) */
  size: number;
  /** the labels of that schedule's faults; empty until the original failure is confirmed */
  faults: string[];
  /** candidates judged so far, the one being tried included */
  candidates: number;
  /** runs spent so far (candidates × their repeats, the survival run of --survival included) */
  runs: number;
  /**
   * runs and candidates per phase: counted from the progress events while it runs (a candidate's runs
   * go to its phase), the command's own figures once shrunk
   */
  runs_by_phase: Record<string, ShrinkPhaseRuns>;
  /** the phase of the latest candidate: reproduce, search, compress or certificate */
  phase?: string;
  /** the labels of the faults of the candidate being tried now; absent when none is */
  trying?: string[];
  /** once shrunk: the minimal faults (labels, in time order), how they were found, and the certificate */
  minimal_faults?: string[];
  method?: string;
  certificate?: CertificateEntry[];
  /** why it stopped without a minimal scenario */
  message?: string;
  started_at: string;
  updated_at: string;
}

export interface ShrinkReply {
  store: string;
  jobs: ShrinkJob[];
}
