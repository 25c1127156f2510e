/**
 * Whether an earlier tap here really opened the app (docs/screens.md): the page went hidden right
 * after an open-app tap and was not left (client/browser/open-app-taps.ts writes it). Kept in this
 * site's localStorage, never sent: the server HTML is one page for every visitor (kept pages), and
 * only the browser switches the button's words ("Get <app>" → "Open in <app>") after hydration.
 */
const KEY = 'lander.appOpened';

/** Whether the app opened from this site before; false wherever storage cannot be read. */
export function appOpenedBefore(): boolean {
  try {
    return window.localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/** Remembers (or forgets) that a tap opened the app; nothing happens where storage refuses. */
export function rememberAppOpened(opened: boolean): void {
  try {
    if (opened) window.localStorage.setItem(KEY, '1');
    else window.localStorage.removeItem(KEY);
  } catch {
    // Nowhere to keep it: the button keeps its first words.
  }
}
