/** In-memory stand-ins for localStorage, document.cookie and fetch, for identity unit tests. */
import { vi } from 'vitest';
import { cookieValue } from '../../client/browser/identity/browser-storage.ts';
import type { CookieJar, KeyValueStore } from '../../client/browser/identity/ports.ts';

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, get: (key) => data.get(key) ?? null, set: (key, value) => void data.set(key, value) };
}

/** Keeps the last cookie string written per name, as a browser would (attributes included). */
export function memoryCookies(initial: Record<string, string> = {}): CookieJar & { written: string[] } {
  const jar = new Map(Object.entries(initial));
  const written: string[] = [];
  return {
    written,
    get: (name) => cookieValue([...jar].map(([k, v]) => `${k}=${v}`).join('; '), name),
    set(cookie) {
      written.push(cookie);
      const [pair = ''] = cookie.split(';');
      const separator = pair.indexOf('=');
      jar.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    },
  };
}

/** A fetch that answers each call with the next of `answers` (the last one repeats). */
export function fetchAnswering(...answers: (() => Response | Promise<Response>)[]) {
  let call = 0;
  return vi.fn<typeof fetch>(async () => {
    const answer = answers[Math.min(call, answers.length - 1)];
    call += 1;
    if (!answer) throw new Error('no answer configured');
    return answer();
  });
}

export const json =
  (body: unknown, status = 200) =>
  async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export const status = (code: number) => async () => new Response(`status ${code}`, { status: code });

export const networkError = () => () => Promise.reject(new TypeError('Failed to fetch'));
