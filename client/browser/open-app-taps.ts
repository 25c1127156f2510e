/**
 * The browser's part of opening the app (docs/screens.md): the worker already put the right href
 * on the link, and the tap itself follows it (browsers refuse a scripted launch, and Universal
 * Links need a real tap). This only watches what happens next: if the page is still visible
 * 2500 ms after the tap — no `visibilitychange` to hidden, no `pagehide` — the app did not open,
 * and the platform's download starts. Android Chrome's `intent://` links carry their own fallback,
 * so they get no timer; the APK in it follows the reachable download domain (docs/config.md).
 * Loaded after hydration (the initial JS budget), listening on the document for every such link.
 */
import { FALLBACK_AFTER_MS } from '../../shared/open-app-view.ts';
import { downloadHref, OPEN_APP_LINK, readOpenAppLink } from '../app/download/links.tsx';
import type { LearnedStore } from '../app/store.tsx';

/** Starts the fallback timer; returns its cancel function. */
export function fallbackAfterTap(go: () => void, ms = FALLBACK_AFTER_MS): () => void {
  const cancel = () => {
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', cancel);
  };
  const onVisibility = () => {
    if (document.hidden) cancel();
  };
  const timer = setTimeout(() => {
    cancel();
    go();
  }, ms);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', cancel);
  return cancel;
}

/** Watches taps on the open-app links the download and landing screens render (`OpenAppLink`). */
export function watchOpenAppTaps(learned: LearnedStore): void {
  let cancelPending = () => {};
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(OPEN_APP_LINK) : null;
    // A prevented tap showed the guide instead (an in-app browser that blocks schemes).
    if (!link || event.defaultPrevented) return;
    const { method, fallback } = readOpenAppLink(link);
    if (!fallback) return;
    const download = downloadHref(fallback, learned.get().downloadReachable.url);
    cancelPending();
    if (method === 'intent') {
      // The tap's navigation reads the href after this listener: swap in the reachable APK.
      if (download !== fallback.href)
        link.href = link.href.replace(encodeURIComponent(fallback.href), encodeURIComponent(download));
      return;
    }
    cancelPending = fallbackAfterTap(() => location.assign(download));
  });
  document.documentElement.dataset.openApp = 'ready';
}
