/**
 * What identity resolution touches in the browser, as small interfaces: the browser passes
 * localStorage and document.cookie, tests pass in-memory fakes.
 */

/** localStorage, reduced to what the ids need. Never throws: storage may be disabled or full. */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
}

/** document.cookie, reduced to reading one cookie and writing one cookie string. */
export interface CookieJar {
  get(name: string): string | null;
  set(cookie: string): void;
}

/** An id and where it came from. */
export interface Resolved<Source extends string> {
  id: string;
  source: Source;
}

/** Receives a warning when an id falls back (the browser passes console.warn). */
export type Warn = (message: string) => void;

/** A short description of a failure for a warning line. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
