/**
 * What every room's calls to the admin API share (docs/operators.md): the sign-in, a day range, and a
 * refused call said in the console's language. Signed in with the admin token, kept in
 * `sessionStorage` (this tab only, gone when it closes), or — with Cloudflare Access in front — with
 * no token: Access puts its signed assertion on every call the browser makes, so the calls carry only
 * its cookie. Each room's own calls take the client and these headers (`../links/links-api.ts`…).
 */

import { FetchError } from 'ofetch';
import { HttpError } from '../../http-client.ts';
import type { SharedTexts } from './shared-texts.ts';

const TOKEN_KEY = 'lander:admin-token';

/** The token this tab signed in with, if any. */
export function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Keeps `token` for this tab, or forgets it (`null`). */
export function keepToken(token: string | null): void {
  try {
    if (token === null) sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused (private mode, policy): the token lives until the page closes.
  }
}

/** The headers of every call signed in with `token` (none with Cloudflare Access: `null`). */
export function signInHeaders(token: string | null): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** A day range, both ends included (UTC, `YYYY-MM-DD`). */
export interface Range {
  from: string;
  to: string;
}

/** What a refused call said: the API's own message, else a network error's, else nothing. */
function detailOf(error: unknown): string | undefined {
  if (error instanceof HttpError) {
    const data: unknown = (error.cause as { data?: unknown } | undefined)?.data;
    if (data && typeof data === 'object' && 'error' in data && typeof data.error === 'string') return data.error;
    return undefined;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The status of a failed call as the console says it: the HTTP status, 0 when the server was not
 * reached (ofetch's error without a status, or fetch's own `TypeError`), null for anything else (a
 * fault in the console itself, not the server's).
 */
function failureStatus(error: unknown): number | null {
  if (error instanceof HttpError) return error.status;
  return error instanceof FetchError || error instanceof TypeError ? 0 : null;
}

/**
 * A failed call in the console's language (`t.refused`): what its status means and what the API
 * said, or a panel's own words for a status it knows the meaning of (`says`, e.g. a link's 409).
 */
export function errorText(
  error: unknown,
  t: Pick<SharedTexts, 'refused'>,
  says: Partial<Record<number, string>> = {},
): string {
  const status = failureStatus(error);
  return (status !== null && says[status]) || t.refused(status, detailOf(error));
}

/** The status of a refused call (401: sign in; 503: not configured), or 0 for a network failure. */
export const statusOf = (error: unknown): number => (error instanceof HttpError ? error.status : 0);

/**
 * The sign-in page a refused call offers (`signIn` in the admin API's 401 when OpenID Connect is
 * configured, docs/operators.md#openid-connect), or null.
 */
export function signInPageOf(error: unknown): string | null {
  if (!(error instanceof HttpError) || error.status !== 401) return null;
  const data: unknown = (error.cause as { data?: unknown } | undefined)?.data;
  const page = data && typeof data === 'object' && 'signIn' in data ? data.signIn : undefined;
  // Only a path of this origin: the console links to nothing the answer could point elsewhere.
  return typeof page === 'string' && page.startsWith('/') && !page.startsWith('//') ? page : null;
}
