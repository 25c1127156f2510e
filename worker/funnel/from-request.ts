/**
 * What a request handler needs to count an event (docs/operators.md): the dimensions of a visit, from
 * the detected device (middleware/visitor.ts), the campaign (campaign/query-data.ts) and Cloudflare's
 * country, and who the visitor is before hashing.
 */
import type { Context } from 'hono';
import type { Campaign } from '../../shared/campaign.ts';
import { MAX_USER_AGENT } from '../../shared/device.ts';
import type { AppEnv } from '../env.ts';
import { type Dimensions, type EventInput, MAX_DIMENSION, type VisitorSource } from './events.ts';
import { recordEvent } from './record-event.ts';

const cut = (value: string | undefined): string => (value ?? '').slice(0, MAX_DIMENSION);

/**
 * The dimensions of the visit `c` describes, under `campaign`: channel and inviter only from the
 * signed token, the plain parameters of the same names apart; `link` is the short link's slug, if any.
 */
export function eventDimensions(c: Context<AppEnv>, campaign: Campaign, link = ''): Dimensions {
  const device = c.get('device');
  return {
    channel: cut(campaign.signed.channel),
    inviter: cut(campaign.signed.inviter),
    link: cut(link),
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

/** Who the visitor of `c` is: the visitor id when the page sent one, else address and agent (hashed later). */
export function visitorSource(c: Context<AppEnv>, visitorId?: string): VisitorSource {
  if (visitorId) return { visitorId };
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

/** `recordEvent` for a Hono handler: sent after the response (`waitUntil`). */
export function countEvent(c: Context<AppEnv>, input: EventInput): void {
  recordEvent(c.env, c.executionCtx, input);
}
