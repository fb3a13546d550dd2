import { useSyncExternalStore } from 'react';
import type { ViewStore } from './view-store.js';
import type { ViewState } from './view-state.js';

/** the latest published (throttled) snapshot */
export function useViewStore(store: ViewStore): ViewState {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
