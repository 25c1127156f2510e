/**
 * The browser's part of opening the app (docs/screens.md): the worker already put the right href
 * on the link, and the tap itself follows it (browsers refuse a scripted launch, and Universal
 * Links need a real tap). This only watches what happens next: if the page is still visible
 * 2500 ms after the tap — no `visibilitychange` to hidden, no `pagehide` — the app did not open,
 * and the platform's download starts. Android Chrome's `intent://` links carry their own fallback,
 * so they get no timer; the APK in it follows the reachable download domain (docs/config.md).
 * A tap after which the page went hidden without being left (no `pagehide` right behind it) opened
 * the app: that is remembered (client/app/download/app-opened.ts), so this site's button says
 * "Open in <app>" next time; a page left for the store forgets it. Never under COOKIELESS=on.
 * Loaded after hydration (the initial JS budget), listening on the document for every such link.
 */
import { FALLBACK_AFTER_MS } from '../../shared/open-app-view.ts';
import { rememberAppOpened } from '../app/download/app-opened.ts';
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

/** How soon after going hidden a `pagehide` means the page was left, not the app brought up. */
const LEFT_WITHIN_MS = 1000;

/**
 * Remembers whether the tap opened the app: hidden within the fallback's time (the app came up),
 * unless `pagehide` follows at once (the page navigated: the store, the download, the link's page).
 */
export function rememberWhetherOpened(remember: (opened: boolean) => void, ms = FALLBACK_AFTER_MS): void {
  let hiddenAt = 0;
  const stop = () => {
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', onPageHide);
  };
  const onVisibility = () => {
    // Back from the app: nothing more to learn from this tap.
    if (!document.hidden) {
      if (hiddenAt) stop();
      return;
    }
    if (hiddenAt) return;
    hiddenAt = Date.now();
    remember(true);
  };
  const onPageHide = () => {
    if (hiddenAt && Date.now() - hiddenAt <= LEFT_WITHIN_MS) remember(false);
    stop();
  };
  const timer = setTimeout(() => {
    if (!hiddenAt) stop();
  }, ms);
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', onPageHide);
}

/**
 * Watches taps on the open-app links the download and landing screens render (`OpenAppLink`);
 * `remember` is false under COOKIELESS=on (docs/operators.md): nothing is stored then.
 */
export function watchOpenAppTaps(learned: LearnedStore, remember = true): void {
  let cancelPending = () => {};
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(OPEN_APP_LINK) : null;
    // A prevented tap showed the guide instead (client/app/download/links.tsx).
    if (!link || event.defaultPrevented) return;
    const { method, fallback } = readOpenAppLink(link);
    if (remember && method !== 'guide') rememberWhetherOpened(rememberAppOpened);
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
