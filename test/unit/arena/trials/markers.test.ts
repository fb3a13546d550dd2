/** Marker sightings per trial: what the book counted while a trial was in flight is its own; the rest is nobody's. */
import { describe, expect, it } from 'vitest';
import { createMarkerBook } from '../../../../src/protocol/markers.js';
import { watchMarkers } from '../../../../src/arena/trials/markers.js';

describe('watchMarkers', () => {
  it('gives a trial the sightings between its start and its verdict, and counts the others unattributed', () => {
    const book = createMarkerBook();
    book.add('f1', 'ARENA-CANARY-1', 'canary', 'mcp');
    const watch = watchMarkers(() => book.travel());
    book.scan('before any trial: ARENA-CANARY-1', 'entered_context');
    watch.begin();
    book.scan('ARENA-CANARY-1 in a prompt', 'entered_context');
    book.scan('call(ARENA-CANARY-1)', 'drove_action');
    expect(watch.end()).toEqual({ entered_context: 1, drove_action: 1, reached_user: 0 });
    book.scan('a recovery probe answered ARENA-CANARY-1', 'reached_user');
    watch.begin();
    book.scan('nothing here', 'entered_context');
    expect(watch.end()).toEqual({ entered_context: 0, drove_action: 0, reached_user: 0 });
    book.scan('after the last trial ARENA-CANARY-1', 'entered_context');
    expect(watch.unattributed()).toEqual({ entered_context: 2, drove_action: 0, reached_user: 1 });
  });
});
