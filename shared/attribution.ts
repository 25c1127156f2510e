/**
 * Attribution's contract (docs/attribution.md), as the page and the worker both read it: the click
 * the page reports on a tap, and the carrier — one string naming that click and its campaign — that
 * the same tap leaves where the app can find it (the clipboard, the Play referrer, the App Linking
 * URL, the stamped APK).
 *
 *   carrier = clickId [ "." token ]
 *
 * `clickId` is 16 bytes in URL-safe base64 without padding (22 characters): issued by the worker
 * (`CLICK_IDS_PATH`, 8 random bytes and their keyed tag) or, for a tap made before any arrived, 128
 * random bits made in the browser, which credit only once the worker has recorded that tap; `token` is the page's campaign token `d` (docs/campaign-links.md), whose own signature is
 * the only thing that vouches for the campaign data. Both alphabets are URL-safe, so a carrier goes
 * into a path or a query unchanged.
 */
import type { AdClick } from './ad-clicks.ts';
import { toBase64Url } from './base64url.ts';
import type { ConsentReport } from './consent.ts';
import type { ClientHints } from './device/types.ts';

/** The makers' stores whose install referrer the Android SDK reads (docs/attribution.md#the-stores). */
export const STORES = ['appgallery', 'honor'] as const;
export type Store = (typeof STORES)[number];

/** The primary actions a click records. */
export const CLICK_ACTIONS = ['download', 'store', 'open', 'guide'] as const;
export type ClickAction = (typeof CLICK_ACTIONS)[number];

/** Where the page reports a tap. */
export const CLICK_PATH = '/api/a/click';
/** Where the page gets the click ids the worker issues for its next taps (`ClickIdsAnswer`). */
export const CLICK_IDS_PATH = '/api/a/click-ids';
/** How many click ids one call issues: a page rarely sees more taps than that. */
export const CLICK_IDS_PER_CALL = 4;

/** The answer of `GET /api/a/click-ids`. */
export interface ClickIdsAnswer {
  clickIds: string[];
}
/** The page a pasted carrier opens: `https://<host>/i/<carrier>`. */
export const CARRIER_PATH = '/i/';

/** A click id: 22 characters of URL-safe base64 (the strict spelling is checked on the worker). */
export const CLICK_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Stands for the carrier in link templates the worker writes (`Handoff.attribution.links`);
 * the tap replaces it. Made of URL-safe characters so it survives being URL-encoded inside another
 * URL (an `intent://` fallback).
 */
export const CARRIER_SLOT = '_lander-carrier_';

/**
 * A click id made in the browser, for a tap made before the worker's arrived: 128 random bits,
 * URL-safe base64 without padding (22 characters).
 */
export function newClickId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(16)));
}

/** The carrier of a click, with the page's campaign token when it has one. */
export function carrierOf(clickId: string, token?: string): string {
  return token ? `${clickId}.${token}` : clickId;
}

/** `template` with the carrier in place of every `CARRIER_SLOT`. */
export function fillCarrier(template: string, carrier: string): string {
  return template.replaceAll(CARRIER_SLOT, carrier);
}

/** The body of `POST /api/a/click` (docs/attribution.md). */
export interface ClickBody {
  clickId: string;
  action: ClickAction;
  /** The page's campaign token. */
  d?: string;
  /** On a short link's page, its slug: the tap is counted under the link (docs/operators.md). */
  link?: string;
  /** On a short link's page with variants, the variant shown: the tap and its install count under it. */
  variant?: string;
  visitorId?: string;
  /** In CSS pixels. */
  screen: { w: number; h: number; dpr: number };
  /** IANA time zone. */
  tz: string;
  langs: string[];
  /** High-entropy client hints, where the browser has them. */
  hints?: Pick<ClientHints, 'platformVersion' | 'model'>;
  /** What the visitor's browser and consent strings say (docs/privacy.md, "Consent"). */
  consent?: ConsentReport;
  /** The ad network's click parameters of the page's address (docs/conversions.md#ad-click-ids). */
  ad?: AdClick;
}

/** What the page needs to attribute its taps, decided on the worker for the page's device. */
export interface AttributionView {
  /** Whether a tap writes `https://<host>/i/<carrier>` to the clipboard. */
  copy: boolean;
  /** Link templates by the plain href they replace on a tap: each holds `CARRIER_SLOT`. */
  links: Record<string, string>;
  /** On a short link's page, its slug: every tap reports it (`ClickBody.link`). */
  link?: string;
  /** On a short link's page with variants, the variant shown: every tap reports it (`ClickBody.variant`). */
  variant?: string;
}
