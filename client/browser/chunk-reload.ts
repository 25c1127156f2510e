/**
 * Recovery from a screen chunk that fails to load (PRODUCT.md §8), e.g. after a deploy removed the
 * old build's files: reload the target path, but never the same path twice within 10 s — the second
 * failure shows the error page instead of reloading forever. It lives in the entry chunk: when
 * chunks fail to load, no other chunk can be counted on.
 */

/** A second reload of the same path within this many ms is blocked. */
export const RELOAD_GUARD_MS = 10_000;

const KEY = 'lander:chunk-reload';

/**
 * Loads `url` afresh unless the guard (sessionStorage, `"{ms} {url}"`) says it was reloaded less
 * than `RELOAD_GUARD_MS` ago. Returns whether the page is going away. Without storage there is no
 * guard, so no reload either: a loop would be worse than the error page.
 */
export function reloadOnce(url: string): boolean {
  const path = new URL(url, location.href).href;
  try {
    const now = Date.now();
    const last = sessionStorage.getItem(KEY) ?? '';
    const space = last.indexOf(' ');
    if (last.slice(space + 1) === path && now - Number(last.slice(0, space)) < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(KEY, `${now} ${path}`);
  } catch {
    return false;
  }
  location.assign(path);
  return true;
}
