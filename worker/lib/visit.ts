/**
 * A visit as a request shows it (docs/operators.md): the dimensions of a visit, from the detected
 * device (device/device-detection.ts), the campaign (campaign/query-data.ts) and Cloudflare's country;
 * who the visitor is before hashing; whether it is a person's view; and a page's view as a fact.
 *
 * A person's view of `/`, `/landing`, `/i/…` or `/s/…`, however the router spells them
 * (lib/page-of.ts), is announced once the page's response is decided, kept pages included
 * (render/count-view.ts). A view's page and dimensions depend only on what the page was made from, so
 * they are built once per page (`pageView`) and kept with a kept page; a request adds only its
 * country, its language, its visitor and its time (`viewed`).
 */
import type { Context } from 'hono';
import type { Campaign } from '../../shared/campaign.ts';
import { MAX_USER_AGENT } from '../../shared/device.ts';
import type { AppEnv, PageIdentity } from '../env.ts';
import {
  type Dimensions,
  MAX_DIMENSION,
  PAGE_KINDS,
  type PageKind,
  type PageViewed,
  type VisitorSource,
} from '../facts.ts';

const cut = (value: string | undefined): string => (value ?? '').slice(0, MAX_DIMENSION);

/**
 * The dimensions of the visit `c` describes, under `campaign`: channel and inviter only from the
 * signed token, the plain parameters of the same names apart; `link` is the short link's slug, if any,
 * and `variant` the name of its variant the visit saw.
 */
export function eventDimensions(c: Context<AppEnv>, campaign: Campaign, link = '', variant = ''): Dimensions {
  const device = c.get('device');
  return {
    channel: cut(campaign.signed.channel),
    inviter: cut(campaign.signed.inviter),
    link: cut(link),
    variant: cut(variant),
    os: device.operatingSystem,
    inapp: cut(device.inApp?.name),
    ...visitorPlace(c),
    plainChannel: cut(campaign.plain.channel),
    plainInviter: cut(campaign.plain.inviter),
  };
}

/** The dimensions that are the visitor's own rather than the page's: Cloudflare's country and the language. */
export function visitorPlace(c: Context<AppEnv>): Pick<Dimensions, 'country' | 'lang'> {
  const country = c.req.raw.cf?.country;
  return { country: typeof country === 'string' ? cut(country) : '', lang: cut(c.get('device').language) };
}

/** Who the visitor of `c` is: its address and agent (hashed later, visitor-key.ts). */
export function visitorSource(c: Context<AppEnv>): VisitorSource {
  return {
    address: c.req.header('cf-connecting-ip') ?? '',
    agent: (c.req.header('user-agent') ?? '').slice(0, MAX_USER_AGENT),
  };
}

/** `Sec-Purpose` / `Purpose` / `X-Moz` values of a speculative load rather than a person's visit. */
const PREFETCH = /\b(?:prefetch|prerender)\b/i;

/**
 * Whether the request of `c` is a person's page view to count: a `GET`, not a bot or link previewer
 * (docs/device.md), not a prefetch or prerender (`Sec-Purpose`, `Purpose`, `X-Moz`).
 */
export function isCountedVisit(c: Context<AppEnv>): boolean {
  if (c.req.method !== 'GET' || c.get('device').bot) return false;
  return !['sec-purpose', 'purpose', 'x-moz'].some((name) => PREFETCH.test(c.req.header(name) ?? ''));
}

/**
 * A page's view, as kept with the page: the event and its dimensions without the country and the
 * language. Kept pages of the location carry it as JSON (render/location-pages.ts), so its shape stays.
 */
export interface PageView {
  event: { type: 'view'; page: PageKind };
  dims: Dimensions;
}

const isCounted = (page: string): page is PageKind => (PAGE_KINDS as readonly string[]).includes(page);

/** The view of `identity`, the page `c` asks for, shown with `campaign`; null when the page is not counted. */
export function pageView(c: Context<AppEnv>, { page }: PageIdentity, campaign: Campaign): PageView | null {
  if (!isCounted(page)) return null;
  const dims = eventDimensions(c, campaign, c.get('link')?.slug, c.get('variant')?.name);
  return { event: { type: 'view', page }, dims: { ...dims, country: '', lang: '' } };
}

/**
 * The fact of `view` for the request of `c`, answered with `status`; null unless it is a person's
 * `GET` (never a bot, `HEAD` or prefetch) of a page that was found. Its visitor is the address and
 * agent (hashed with the day's key by the funnel), never the `user_id` cookie: a browser's first view
 * has no cookie yet, and its reload has one, so keying by the cookie counted one browser as two
 * (docs/operators.md#visitors).
 */
export function viewed(c: Context<AppEnv>, view: PageView | null, status: number): PageViewed | null {
  if (!view || status >= 400 || !isCountedVisit(c)) return null;
  // The country and the language are the visitor's own, not the page's (one page serves many of each).
  const dims = { ...view.dims, ...visitorPlace(c) };
  return { fact: 'page-viewed', at: Date.now(), page: view.event.page, dims, visitor: visitorSource(c) };
}
