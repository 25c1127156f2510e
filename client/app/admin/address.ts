/**
 * The console's query string, read and written with the History API (docs/operators.md#drill-down).
 * Not the router's hooks: importing one from the console's chunk would make the visitors' entry chunk
 * export it, and every router navigation passes the page-change guard; a drill-down is neither.
 */
import { useSyncExternalStore } from 'react';

const CHANGED = 'lander:address';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** The address's query string (`?…`, or `''`), kept current through back and forward steps. */
export function useSearch(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => '',
  );
}

/**
 * Puts `search` in the address: a new history entry, or in place with `replace`. The router's own
 * entry state is kept, so its back and forward steps still count right.
 */
export function setSearch(search: string, replace = false): void {
  const url = `${window.location.pathname}${search}${window.location.hash}`;
  if (replace) window.history.replaceState(window.history.state, '', url);
  else window.history.pushState(window.history.state, '', url);
  window.dispatchEvent(new Event(CHANGED));
}
