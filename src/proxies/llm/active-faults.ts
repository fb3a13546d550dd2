/**
 * The faults acting on the proxy right now, and the decision for each
 * request: which fault (if any) fires on it. Status and timeout faults are
 * decided when the request arrives; stream faults only once the upstream's
 * answer turns out to be a stream, so a non-streamed call is never counted
 * against `first_n` by a fault that could not act on it.
 */
import type { Random } from '../../shared/random.js';
import { isStreamFault, matches, type LlmFaultSpec } from './fault-spec.js';

export interface ActiveLlmFault {
  readonly id: string;
  readonly spec: LlmFaultSpec;
  /** requests it acted on (what `first_n` counts) */
  fired: number;
  /** requests it was drawn for but could not act on (no tool call to break, a non-streamed answer to slow…) */
  notApplicable: number;
  isActive: boolean;
  /** held requests and stalled streams waiting for this fault to end */
  readonly waiting: Set<() => void>;
}

export interface RequestDecision {
  /** a status or timeout fault that fires on this request */
  fault?: ActiveLlmFault;
  /** stream faults whose match holds, decided when the answer starts */
  streamCandidates: ActiveLlmFault[];
}

const NONE: RequestDecision = { streamCandidates: [] };

/** faults that read the request body: the model to swap, the tools' required fields, the tokens a request costs */
const READS_REQUEST: ReadonlySet<string> = new Set(['model_swap', 'malformed_tool_args', 'rate_limit_storm']);

export class ActiveFaults {
  private faults: ActiveLlmFault[] = [];

  constructor(private readonly random: Random) {}

  get isEmpty(): boolean {
    return this.faults.length === 0;
  }

  /** true when some fault reads the request whole (the model to swap, its tools, its size) */
  get needsBody(): boolean {
    return this.faults.some((f) => READS_REQUEST.has(f.spec.errorType));
  }

  /** true when some fault matches on `model`: the body is read as far as its model */
  get needsModel(): boolean {
    return this.faults.some((f) => f.spec.match?.model !== undefined);
  }

  add(id: string, spec: LlmFaultSpec): ActiveLlmFault {
    const fault: ActiveLlmFault = { id, spec, fired: 0, notApplicable: 0, isActive: true, waiting: new Set() };
    this.faults.push(fault);
    return fault;
  }

  /** ends the fault: later requests pass, and what it held or stalled goes on */
  remove(fault: ActiveLlmFault): void {
    if (!fault.isActive) return;
    fault.isActive = false;
    this.faults = this.faults.filter((f) => f !== fault);
    const waiting = [...fault.waiting];
    fault.waiting.clear();
    for (const release of waiting) release();
  }

  list(): readonly ActiveLlmFault[] {
    return this.faults;
  }

  decide(pathname: string, model: string | undefined): RequestDecision {
    if (this.faults.length === 0) return NONE;
    const streamCandidates: ActiveLlmFault[] = [];
    for (const fault of this.faults) {
      if (!matches(fault.spec.match, pathname, model)) continue;
      if (isStreamFault(fault.spec.errorType)) streamCandidates.push(fault);
      else if (this.fires(fault)) return { fault, streamCandidates: [] };
    }
    return streamCandidates.length === 0 ? NONE : { streamCandidates };
  }

  /** called when the answer is a stream; the first candidate still active that fires */
  decideStream(candidates: readonly ActiveLlmFault[]): ActiveLlmFault | undefined {
    for (const fault of candidates) if (fault.isActive && this.fires(fault)) return fault;
    return undefined;
  }

  /** a new stream fault and a stream already flowing: does it act on it (match, first_n, probability)? */
  takesOver(fault: ActiveLlmFault, pathname: string, model: string | undefined): boolean {
    return fault.isActive && matches(fault.spec.match, pathname, model) && this.fires(fault);
  }

  /** a stream ended before its fault's cut point: the fault did not act, so it does not count */
  unfire(fault: ActiveLlmFault): void {
    if (fault.fired > 0) fault.fired--;
  }

  /** drawn, but the answer gave it nothing to act on: counted apart, and first_n still waits for one it can */
  notApplicable(fault: ActiveLlmFault): void {
    this.unfire(fault);
    fault.notApplicable++;
  }

  private fires(fault: ActiveLlmFault): boolean {
    const { firstN, probability } = fault.spec;
    if (firstN !== undefined && fault.fired >= firstN) return false;
    // probability 0 never fires and 1 always does, without drawing, so neither shifts the seeded sequence
    if (probability <= 0) return false;
    if (probability < 1 && this.random.next() >= probability) return false;
    fault.fired++;
    return true;
  }
}
