/**
 * `GET /v1/calls?since=N` on a proxy's control port: the calls its ledger
 * holds after `since` (a `seq` the reader saw last; 0 or absent for all),
 * oldest first, with `next` to ask from next time and `dropped`, the calls
 * after `since` the ledger's bound let go before this read.
 */
import type { ProtocolRoute } from '../protocol/http.js';
import type { CallLedgerReader } from '../protocol/calls.js';
import { badRequest } from '../protocol/wire.js';
import { sendJSON } from '../shared/http/respond.js';

export function callsRoute(ledger: CallLedgerReader): ProtocolRoute {
  return {
    method: 'GET',
    path: '/v1/calls',
    handle: async (_req, res, { query }) => sendJSON(res, 200, ledger.calls(parseSince(query.get('since')))),
  };
}

function parseSince(text: string | null): number {
  if (text === null) return 0;
  const since = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(since) || since < 0)
    throw badRequest(`query parameter since must be a whole number ≥ 0 (a seq from an earlier answer), got "${text}"`);
  return since;
}
