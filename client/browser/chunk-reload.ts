/**
 * Recovery from a screen chunk that fails to load (docs/builds.md), e.g. after a deploy removed the
 * old build's files: reload the target path, but never the same path twice within 10 s — the second
 * failure shows the error page instead of reloading forever. It lives in the entry chunk: when
 * chunks fail to load, no other chunk can be counted on.
 */

/** A second reload of the same path within this many ms is blocked. */
export const RELOAD_GUARD_MS = 10_000;

const KEY = 'lander:chunk-reload';

/**
 * Loads `url` (absolute, as `location.href` or `URL.href` give it: no raw spaces) afresh unless the
 * guard (sessionStorage, `"{ms} {url}"`) says it was reloaded less than `RELOAD_GUARD_MS` ago.
 * Returns whether the page is going away. Without storage there is no guard, so no reload either:
 * a loop would be worse than the error page.
 */
export function reloadOnce(url: string): boolean {
  try {
    const now = Date.now();
    const [at, last] = (sessionStorage.getItem(KEY) ?? '').split(' ');
    if (last === url && now - Number(at) < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(KEY, `${now} ${url}`);
  } catch {
    return false;
  }
  location.assign(url);
  return true;
}
