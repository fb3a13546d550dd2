/**
 * Where a corrupted value goes (DESIGN §13.3). A quiet fault that changes a
 * value gives it a marker: the canary of `inject`, the seeded signature of
 * `corrupt`, the changed numbers of `wrong_value`. The book remembers them
 * per fault and counts, per fault, the later texts that carry one: an LLM
 * request (it entered the agent's context), a tool call (it drove an action),
 * a workload answer (it reached the user). The damage is traced by what
 * travels, without an LLM judge.
 *
 * One book may be shared by the proxies of a target and its workload, so a
 * canary the MCP proxy planted is found in the LLM proxy's next request.
 */

export const MARKER_STAGES = ['entered_context', 'drove_action', 'reached_user'] as const;
export type MarkerStage = (typeof MARKER_STAGES)[number];

/** canary: `inject`'s instruction; signature: `corrupt`'s appended tag; value: a number `wrong_value` changed */
export type MarkerKind = 'canary' | 'signature' | 'value';

/** one fault's markers and how far they travelled (an additive field of stats and run reports) */
export interface MarkerTravel {
  fault_id: string;
  /** what planted them: the LLM proxy, the MCP proxy, the embedded runtime's tools */
  source: string;
  kind: MarkerKind;
  /** distinct markers planted (capped at MAX_PER_FAULT) */
  markers: number;
  /** later texts of each stage that carried at least one of them */
  entered_context: number;
  drove_action: number;
  reached_user: number;
}

export interface MarkerBook {
  /** true once a marker is planted: scanning costs nothing before */
  readonly isTracking: boolean;
  add(faultId: string, marker: string, kind: MarkerKind, source: string): void;
  /** counts, per fault, whether `text` carries one of its markers */
  scan(text: string, stage: MarkerStage): void;
  travel(): MarkerTravel[];
}

/** a fault changing thousands of answers keeps its first markers: enough to trace, bounded memory and scan time */
const MAX_PER_FAULT = 64;
/** a changed number in free text with fewer digits is too common to trace (a "12" in a later request proves nothing) */
const MIN_VALUE_CHARS = 3;

interface Entry {
  travel: MarkerTravel;
  markers: Set<string>;
}

export function createMarkerBook(): MarkerBook {
  const entries = new Map<string, Entry>();
  return {
    get isTracking() {
      return entries.size > 0;
    },
    add(faultId, marker, kind, source) {
      // a keyed value (`"days":4`) is specific enough; a bare number needs a few digits
      if (kind === 'value' && !marker.includes('":') && marker.replace(/[^0-9]/g, '').length < MIN_VALUE_CHARS) return;
      let entry = entries.get(faultId);
      if (!entry) {
        entry = {
          travel: {
            fault_id: faultId,
            source,
            kind,
            markers: 0,
            entered_context: 0,
            drove_action: 0,
            reached_user: 0,
          },
          markers: new Set(),
        };
        entries.set(faultId, entry);
      }
      if (entry.markers.size >= MAX_PER_FAULT || entry.markers.has(marker)) return;
      entry.markers.add(marker);
      entry.travel.markers = entry.markers.size;
    },
    scan(text, stage) {
      for (const entry of entries.values()) {
        for (const marker of entry.markers) {
          if (entry.travel.kind === 'value' ? hasNumber(text, marker) : text.includes(marker)) {
            entry.travel[stage]++;
            break;
          }
        }
      }
    },
    travel: () => [...entries.values()].map((e) => ({ ...e.travel })),
  };
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** the number as a whole token: not part of a longer number (no digit or decimal point on either side) */
function hasNumber(text: string, number: string): boolean {
  for (let at = text.indexOf(number); at >= 0; at = text.indexOf(number, at + 1)) {
    const end = at + number.length;
    // a decimal point continues the number only when a digit follows it ("1234." ends a sentence)
    const continues = (c: number, next: number) => isDigit(c) || (c === 46 && isDigit(next));
    const isBefore = at > 0 && continues(text.charCodeAt(at - 1), text.charCodeAt(at));
    const isAfter = end < text.length && continues(text.charCodeAt(end), text.charCodeAt(end + 1));
    if (!isBefore && !isAfter) return true;
  }
  return false;
}
