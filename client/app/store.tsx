/**
 * The client store (docs/config.md): seeded from the server render, refined in the browser.
 * A tiny external store so a refinement (device info, reachable domain, ids) re-renders readers.
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { ClientStore } from '../../shared/handoff.ts';

export interface Store {
  get(): ClientStore;
  /**
   * The state the store was created with: what the server rendered. Hydration reads this, so a
   * refinement that lands while React is still hydrating (it hydrates in slices) cannot make the
   * first client render differ from the server's HTML; React renders the newer state right after.
   */
  initial(): ClientStore;
  update(patch: Partial<ClientStore>): void;
  subscribe(listener: () => void): () => void;
}

export function createStore(initial: ClientStore): Store {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    initial: () => initial,
    update(patch) {
      state = { ...state, ...patch };
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const StoreContext = createContext<Store | null>(null);

export function StoreProvider({ store, children }: { store: Store; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The store object itself, for code that writes to it. */
export function useStoreApi(): Store {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStore must be used inside <StoreProvider>');
  return store;
}

/** The current store state; re-renders when it changes. */
export function useStore(): ClientStore {
  const store = useStoreApi();
  return useSyncExternalStore(store.subscribe, store.get, store.initial);
}
