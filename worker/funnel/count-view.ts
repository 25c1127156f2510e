/**
 * Page views for the funnel (docs/operators.md): a person's view of `/`, `/landing`, `/i/…` or `/s/…`,
 * however the router spells them (lib/page-of.ts), is counted once the page's response is decided,
 * kept pages included, after the response (`countEvent` runs under `ctx.waitUntil`). A view's event and dimensions depend only on what the page
 * was made from, so they are built once per page (`pageView`) and kept with a kept page; a request
 * adds only its country, its language and its visitor.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Campaign } from '../../shared/campaign.ts';
import { isUuid, USER_ID_KEY } from '../../shared/identity.ts';
import type { AppEnv, PageIdentity } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { type Dimensions, type FunnelEvent, PAGE_KINDS, type PageKind } from './events.ts';
import { countEvent, eventDimensions, isCountedVisit, visitorPlace, visitorSource } from './from-request.ts';

/** A page's view, as counted: the event and its dimensions without the country and the language. */
export interface PageView {
  event: FunnelEvent;
  dims: Dimensions;
}

const isCounted = (page: string): page is PageKind => (PAGE_KINDS as readonly string[]).includes(page);

/** The view of `identity`, the page `c` asks for, shown with `campaign`; null when the page is not counted. */
export function pageView(c: Context<AppEnv>, { page }: PageIdentity, campaign: Campaign): PageView | null {
  if (!isCounted(page)) return null;
  const dims = eventDimensions(c, campaign, c.get('link')?.slug);
  return { event: { type: 'view', page }, dims: { ...dims, country: '', lang: '' } };
}

/**
 * Counts `view` for the request of `c`, answered with `status`: only a person's `GET` (never a bot,
 * `HEAD` or prefetch) of a page that was found. The visitor is the page's `user_id` cookie when it
 * holds one, else the day's keyed hash of address and agent; with `COOKIELESS=on`, always the hash.
 */
export function countView(c: Context<AppEnv>, view: PageView | null, status: number): void {
  if (!view || status >= 400 || !isCountedVisit(c)) return;
  // The country and the language are the visitor's own, not the page's (one page serves many of each).
  const dims = { ...view.dims, ...visitorPlace(c) };
  const cookie = settingsOf(c.env).cookieless ? undefined : getCookie(c, USER_ID_KEY);
  countEvent(c, {
    event: view.event,
    dims,
    visitor: visitorSource(c, isUuid(cookie) ? cookie.toLowerCase() : undefined),
  });
}
