/** The browser's localStorage and document.cookie behind the identity ports. */
import type { CookieJar, KeyValueStore } from './ports.ts';

/**
 * localStorage that never throws: Safari's private mode, disabled storage and a full quota all
 * throw, and the ids must still resolve (they then live in the cookie and the client store).
 */
export const localStore: KeyValueStore = {
  get(key) {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Nowhere to keep it; the cookie still carries the visitor id.
    }
  },
};

/** The value of cookie `name` in a `Cookie`-style string (`a=1; b=2`), or null. */
export function cookieValue(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    return part.slice(separator + 1).trim();
  }
  return null;
}

/** document.cookie: reads one cookie, writes one cookie string. */
export const documentCookies: CookieJar = {
  get: (name) => cookieValue(document.cookie, name),
  set(cookie) {
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from the iOS and in-app webviews most visitors use
    document.cookie = cookie;
  },
};
