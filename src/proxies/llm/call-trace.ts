/**
 * One CallRecord per request through the LLM proxy (DESIGN §14): who sent it
 * (`x-arena-trial`, `traceparent`, `x-arena-client`), when, whether a fault
 * acted on it, whether a 2xx answer reached the client whole, and what the
 * answer's `usage` says it cost. Written to the ledger once the client's side
 * of the exchange closes, however it ended.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallLedger, NewCall } from '../../protocol/calls.js';
import type { Clock } from '../../shared/clock.js';
import { attribution, clip } from '../attribution.js';
import { tapAnswer, type AnswerTap, type TapBudget } from './answer-tap.js';

export interface CallTrace {
  /** a fault acted on this call (an error, a hold, a changed or cut answer) */
  faulted(): void;
  /** the answer was broken off: it does not count as delivered whole even if it ended cleanly on the wire */
  broken(): void;
  /** the model the request asked for: recorded when the answer names none */
  requested(model: string): void;
  /** the upstream's answer, read beside the relay for its model and usage */
  answer(upRes: IncomingMessage): void;
}

export interface TokenTotals {
  input: number;
  output: number;
  /** 2xx answers that carried a usage, and those that did not (streams without include_usage, cut answers) */
  answers_with_usage: number;
  answers_without_usage: number;
}

export interface CallRecorder {
  /** `requestedModel`: the model the request body names, when known by the time the call ends */
  trace(req: IncomingMessage, res: ServerResponse, requestedModel?: () => string | undefined): CallTrace;
  tokens(): TokenTotals;
}

/** how long a call answered before its request body arrived waits for the body (its model) to be recorded */
const BODY_WAIT_MS = 1000;

export function createCallRecorder(options: {
  ledger: CallLedger;
  clock: Clock;
  /** the agent whose proxy this is, when it belongs to one */
  agent?: string;
  budget: TapBudget;
}): CallRecorder {
  const totals: TokenTotals = { input: 0, output: 0, answers_with_usage: 0, answers_without_usage: 0 };
  return {
    tokens: () => ({ ...totals }),
    trace(req, res, requestedModel) {
      const started = options.clock.wallNow().getTime();
      let isFaulted = false;
      let isBroken = false;
      let requested: string | undefined;
      let tap: AnswerTap | undefined;
      let isRecorded = false;
      res.once('close', () => {
        const usage = tap?.finish() ?? {};
        const ok = res.writableFinished && res.statusCode >= 200 && res.statusCode < 300 && !isBroken;
        const call: NewCall = {
          kind: 'llm',
          ...(options.agent !== undefined ? { agent: options.agent } : {}),
          started_ms: started,
          ended_ms: options.clock.wallNow().getTime(),
          ...attribution(req),
          ok,
          faulted: isFaulted,
        };
        if (usage.tokens) {
          call.tokens = usage.tokens;
          totals.input += usage.tokens.input;
          totals.output += usage.tokens.output;
          totals.answers_with_usage++;
        } else if (tap && res.statusCode >= 200 && res.statusCode < 300) totals.answers_without_usage++;
        const record = () => {
          if (isRecorded) return;
          isRecorded = true;
          const model = usage.model ?? requested ?? requestedModel?.();
          if (model !== undefined) call.model = clip(model);
          options.ledger.record(call);
        };
        // an error answered before the body arrived: its model is read as the body drains (bounded wait)
        if (req.complete || req.destroyed || usage.model !== undefined || requested !== undefined) return record();
        req.once('end', record);
        req.once('close', record);
        options.clock.setTimer(BODY_WAIT_MS, record);
      });
      return {
        faulted: () => void (isFaulted = true),
        broken: () => void (isBroken = true),
        requested: (model) => void (requested = model),
        answer(upRes) {
          tap ??= tapAnswer(upRes, options.budget);
        },
      };
    },
  };
}
