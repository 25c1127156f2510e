/**
 * The visitor id (docs/identity.md), in this order: (1) reuse `user_id` from localStorage or the cookie;
 * (2) else ask the trace service, credentials included, and read `userId`; (3) if that fails, warn
 * and use a random UUID as a temporary id; (4) keep the result in localStorage and the cookie.
 */

import { isUuid, randomUuid, USER_ID_KEY, userIdCookie, type VisitorIdSource } from '../../../shared/identity.ts';
import type { HttpClient } from '../../app/http-client.ts';
import { type CookieJar, describeError, type KeyValueStore, type Resolved, type Warn } from './ports.ts';

/** How long the trace call may take before the page settles for a temporary id. */
export const TRACE_TIMEOUT_MS = 5_000;

export interface VisitorIdOptions {
  storage: KeyValueStore;
  cookies: CookieJar;
  http: HttpClient;
  /** Origin of the trace service (`TRACE_ORIGIN`, or the page's own). */
  traceOrigin: string;
  /** The visit's query data (channel, inviter, …), sent along on the trace call (docs/screens.md). */
  queryData?: Record<string, string>;
  warn?: Warn;
}

/** Resolves, stores and returns the visitor id with its source. Never rejects. */
export async function resolveVisitorId({
  storage,
  cookies,
  http,
  traceOrigin,
  queryData = {},
  warn = console.warn,
}: VisitorIdOptions): Promise<Resolved<VisitorIdSource>> {
  const resolved = storedVisitorId(storage, cookies) ?? (await tracedVisitorId(http, traceOrigin, queryData, warn));
  // Step 4 runs for a stored id too: a cookie-only id goes back into localStorage and vice versa,
  // and rewriting the cookie renews its one-year lifetime.
  storage.set(USER_ID_KEY, resolved.id);
  cookies.set(userIdCookie(resolved.id));
  return resolved;
}

/** localStorage first, then the cookie; a value that is not a UUID was not written by us and is ignored. */
function storedVisitorId(storage: KeyValueStore, cookies: CookieJar): Resolved<VisitorIdSource> | null {
  for (const value of [storage.get(USER_ID_KEY), cookies.get(USER_ID_KEY)]) {
    if (isUuid(value)) return { id: value.toLowerCase(), source: 'stored' };
  }
  return null;
}

async function tracedVisitorId(
  http: HttpClient,
  traceOrigin: string,
  queryData: Record<string, string>,
  warn: Warn,
): Promise<Resolved<VisitorIdSource>> {
  try {
    const url = new URL('/api/trace', traceOrigin).href;
    const answer = await http<{ userId?: unknown }>(url, {
      credentials: 'include',
      query: queryData,
      timeout: TRACE_TIMEOUT_MS,
    });
    if (!isUuid(answer?.userId)) throw new Error('the trace service answered without a valid userId');
    return { id: answer.userId.toLowerCase(), source: 'trace' };
  } catch (error) {
    warn(`Visitor id: ${describeError(error)}; using a temporary id`);
    return { id: randomUuid(), source: 'temporary' };
  }
}
