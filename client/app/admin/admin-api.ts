/**
 * The console's calls to the admin API (docs/operators.md): the stats (JSON, or CSV downloaded as a
 * file) and the links. Signed in with the admin token, kept in `sessionStorage` (this tab only, gone
 * when it closes), or — with Cloudflare Access in front — with no token: Access puts its signed
 * assertion on every call the browser makes, so the calls carry only its cookie.
 */

import { FetchError } from 'ofetch';
import type {
  InstallLookupView,
  LinkView,
  StatsGrouping,
  StatsRow,
  TestInstallView,
} from '../../../shared/admin-contract.ts';
import type { StorePostbacksView } from '../../../shared/store-postbacks.ts';
import { type HttpClient, HttpError, http } from '../http-client.ts';
import type { AdminTexts } from './admin-texts.ts';
import { fraudApi } from './fraud-api.ts';
import { testDevicesApi } from './test-devices-api.ts';
import { webhooksApi } from './webhooks-api.ts';

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

/** `/api/stats` groupings (shared/admin-contract.ts). */
export type Grouping = StatsGrouping;

/** The stats API's filters: only events of that channel, inviter or short link. */
export type StatsFilter = Partial<Record<'channel' | 'inviter' | 'link', string>>;

export type { InstallLookupView, LinkView, StatsRow, TestInstallView };

/** What a new link asks for. */
export interface LinkRequest {
  channel?: string;
  inviter?: string;
  slug?: string;
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
  t: Pick<AdminTexts, 'refused'>,
  says: Partial<Record<number, string>> = {},
): string {
  const status = failureStatus(error);
  return (status !== null && says[status]) || t.refused(status, detailOf(error));
}

/** The status of a refused call (401: sign in; 503: not configured), or 0 for a network failure. */
export const statusOf = (error: unknown): number => (error instanceof HttpError ? error.status : 0);

/** The admin API, signed in with `token` (or with Cloudflare Access when null). */
export function adminApi(token: string | null, client: HttpClient = http) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const statsUrl = (by: Grouping, range: Range, filter: StatsFilter = {}) =>
    `/api/stats?${new URLSearchParams({ ...range, by, ...filter })}`;
  return {
    /** `/api/webhooks` (docs/webhooks.md). */
    webhooks: webhooksApi(client, headers),
    /** `/api/fraud` (docs/fraud.md). */
    fraud: fraudApi(client, headers),
    /** `/api/test-devices` (docs/attribution.md, "Test devices"). */
    testDevices: testDevicesApi(client, headers),
    async stats(by: Grouping, range: Range, filter?: StatsFilter): Promise<StatsRow[]> {
      return (await client<{ rows: StatsRow[] }>(statsUrl(by, range, filter), { headers })).rows;
    },
    /**
     * The rows, with the previous period's totals (docs/operators.md#compared-with-the-previous-period)
     * and the zone the days are in (docs/operators.md#days-and-time-zones).
     */
    compared(
      by: Grouping,
      range: Range,
      filter?: StatsFilter,
    ): Promise<{ rows: StatsRow[]; previous?: { totals: StatsRow }; timeZone?: string }> {
      return client(`${statsUrl(by, range, filter)}&compare=previous`, { headers });
    },
    async links(): Promise<LinkView[]> {
      return (await client<{ links: LinkView[] }>('/api/links', { headers })).links;
    },
    /** Test devices' answers, newest first; with `after`, only those newer than that id. */
    async testInstalls(after?: number): Promise<TestInstallView[]> {
      const query = after ? `?after=${after}` : '';
      return (await client<{ installs: TestInstallView[] }>(`/api/test-installs${query}`, { headers })).installs;
    },
    /** One install's answer and why, test or not. */
    install(app: string, installId: string): Promise<InstallLookupView> {
      return client<InstallLookupView>(`/api/installs?${new URLSearchParams({ app, installId })}`, { headers });
    },
    /** Apple's signed postbacks counted since `since` (a day), by day (docs/store-postbacks.md). */
    storePostbacks(since: string): Promise<StorePostbacksView> {
      return client<StorePostbacksView>(`/api/store-postbacks?${new URLSearchParams({ since })}`, { headers });
    },
    createLink(body: LinkRequest): Promise<LinkView> {
      return client<LinkView>('/api/links', { method: 'POST', body, headers });
    },
    /** Moves a link's expiry (`null`: it never expires), answering the link as it now is. */
    setLinkExpiry(slug: string, expiresAt: string | null): Promise<LinkView> {
      return client<LinkView>(`/api/links/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        body: { expiresAt },
        headers,
      });
    },
    /** The stats as CSV (`Accept: text/csv`), saved as a file. */
    async downloadCsv(by: Grouping, range: Range): Promise<void> {
      const csv = await client<string>(statsUrl(by, range), { headers: { ...headers, accept: 'text/csv' } });
      const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `lander-${by}-${range.from}-${range.to}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    },
  };
}

export type AdminApi = ReturnType<typeof adminApi>;
