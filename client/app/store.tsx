/**
 * What a page knows, in two parts (docs/config.md):
 * - the hand-off: what the worker rendered the page with, read once and never changed (one context);
 * - the learned state: what the browser finds out afterwards (refined device, reachable download
 *   domain, ids, latest build), in a tiny external store so an update re-renders its readers.
 * The learned state starts equal to what the server rendered, and React reads that starting state
 * while hydrating (the server snapshot): an update that lands while React still hydrates (it hydrates
 * in slices) cannot make the first client render differ from the server's HTML; React renders the
 * newer state right after.
 */
import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react';
import type { Verdict } from '../../shared/device/verdict.ts';
import type { DeviceInfo } from '../../shared/device.ts';
import type { Handoff } from '../../shared/handoff.ts';
import type { Identity } from '../../shared/identity.ts';

export interface Learned {
  /**
   * The device: the hand-off's own object (the worker's verdict) until the browser refines it
   * (docs/device.md), then the browser's whole detection.
   */
  deviceInfo: Verdict | DeviceInfo;
  /** The first download domain that answers (docs/config.md); `init` once the probe is done. */
  downloadReachable: { init: boolean; url: string };
  /** Visitor id and fingerprint id with their sources (docs/identity.md). */
  identity: Identity;
  /** The newest deployed build, once the browser has asked (docs/screens.md, docs/builds.md). */
  latestBuildId?: string;
}

export interface LearnedStore {
  get(): Learned;
  /** The state the server rendered; hydration reads this. */
  initial(): Learned;
  update(patch: Partial<Learned>): void;
  subscribe(listener: () => void): () => void;
}

/** Starts as what the server rendered: the browser has learned nothing yet. */
export function createLearnedStore(handoff: Handoff): LearnedStore {
  const initial: Learned = {
    deviceInfo: handoff.deviceInfo,
    downloadReachable: { init: false, url: handoff.downloadOrigin },
    // The ids live in the browser: nothing is known of them before it runs (docs/identity.md).
    identity: { visitorId: null, visitorIdSource: null, fingerprintId: null, fingerprintIdSource: null },
  };
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

// Every render happens inside <StoreProvider> (client/app/app.tsx), so the contexts have no default.
const HandoffContext = createContext<Handoff>(undefined as never);
const LearnedContext = createContext<LearnedStore>(undefined as never);

export function StoreProvider({
  handoff,
  learned,
  children,
}: {
  handoff: Handoff;
  learned: LearnedStore;
  children: ReactNode;
}) {
  return (
    <HandoffContext.Provider value={handoff}>
      <LearnedContext.Provider value={learned}>{children}</LearnedContext.Provider>
    </HandoffContext.Provider>
  );
}

/** What the worker handed over. */
export function useHandoff(): Handoff {
  return useContext(HandoffContext);
}

/** The learned store itself, for code that writes to it. */
export function useLearnedStore(): LearnedStore {
  return useContext(LearnedContext);
}

/** What the browser has learned so far; re-renders when it learns more. */
export function useLearned(): Learned {
  const learned = useLearnedStore();
  return useSyncExternalStore(learned.subscribe, learned.get, learned.initial);
}
