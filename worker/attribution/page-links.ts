/**
 * What a page needs to attribute its taps (docs/attribution.md), decided on the worker with the rest
 * of the page: whether a tap copies the carrier link, and the links that carry the carrier — as
 * templates the tap fills in, keyed by the plain href they replace:
 * - Google Play links gain `&referrer=<carrier>` (the Play Install Referrer the app reads);
 * - Chrome's `intent://` link carries the same Play link as its own fallback;
 * - HarmonyOS NEXT's App Linking URL becomes `https://<link domain>/i/<carrier>`;
 * - with a parent APK uploaded (docs/apk-stamping.md), an APK download becomes the stamped
 *   `https://<page host>/dl/<carrier>/<file>`, keyed by its `apkPath`: the browser moves APK hrefs
 *   to the reachable download domain, and the path stays the same.
 * - on a phone that runs Android apps (HarmonyOS 2–4, EMUI), the AppGallery button becomes
 *   AppGallery's attribution link `hiapplink://com.huawei.appmarket?appId=<id>&referrer=<carrier>`:
 *   AppGallery keeps the referrer, and the app reads it at first launch from AppGallery's provider
 *   (docs/attribution.md#the-stores). HarmonyOS NEXT keeps the https link: its apps read App Linking.
 * App Store links need no carrier: they carry the provider token and campaign (`appStoreQuery`).
 * No other store link carries one: none documents a parameter it hands back to the app (YYB,
 * Xiaomi, OPPO, vivo; docs/attribution.md#the-stores).
 */
import { stampedUrl } from '../../shared/apk-parent.ts';
import { type AttributionView, CARRIER_PATH, CARRIER_SLOT } from '../../shared/attribution.ts';
import { type Campaign, campaignField } from '../../shared/campaign.ts';
import type { AttributionConfig } from '../../shared/config/schema.ts';
import type { DownloadButton, DownloadView } from '../../shared/download-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';

/** App Store Connect's campaign token: at most 40 characters (developer.apple.com, "App Analytics"). */
const CT_MAX = 40;

/** `?pt=…&ct=…` for App Store links, or `''` without a provider token. */
export function appStoreQuery(attribution: AttributionConfig, campaign: Campaign): string {
  const pt = attribution.app_store_provider_token;
  if (!pt) return '';
  const channel = campaignField(campaign, 'channel')?.slice(0, CT_MAX);
  return `?${new URLSearchParams(channel ? { pt, ct: channel } : { pt })}`;
}

const isPlayLink = (href: string): boolean => href.startsWith('https://play.google.com/');

/** A Play link with the carrier as its install referrer. */
const withReferrer = (href: string): string => `${href}${href.includes('?') ? '&' : '?'}referrer=${CARRIER_SLOT}`;

/**
 * AppGallery's attribution link for the app id of an AppGallery href, the carrier as its `referrer`
 * (AppGallery Connect's deep links take `appId`, `channelId` and `referrer`); null without an id.
 */
function appGalleryWithReferrer(href: string): string | null {
  const id = URL.parse(href)?.searchParams.get('id');
  return id ? `hiapplink://com.huawei.appmarket?appId=${encodeURIComponent(id)}&referrer=${CARRIER_SLOT}` : null;
}

export interface PageLinksInput {
  attribution: AttributionConfig;
  download: DownloadView;
  openApp: OpenAppView | null;
  /** The screen's route id: the landing and carrier pages always copy. */
  screen: 'download' | 'landing' | 'other';
  /** HarmonyOS NEXT's App Linking domain when its open link is one (open-app.ts). */
  appLinkingDomain: string | null;
  /** On a short link's page, its slug, for the taps to report (docs/operators.md). */
  link?: string;
  /** Whether the phone runs Android apps from AppGallery (HarmonyOS 2–4): its AppGallery button carries the carrier. */
  appGalleryReferrer?: boolean;
  /** The page's origin and the uploaded parent's file name, when the Android app has one. */
  stampedApk?: { origin: string; file: string } | null;
}

export function pageLinks({
  attribution,
  download,
  openApp,
  screen,
  appLinkingDomain,
  link,
  appGalleryReferrer = false,
  stampedApk = null,
}: PageLinksInput): AttributionView {
  const links: Record<string, string> = {};
  const buttons: (DownloadButton | null)[] = [download.primary, ...download.stores];
  for (const button of buttons) if (button && isPlayLink(button.href)) links[button.href] = withReferrer(button.href);
  for (const button of buttons) {
    const gallery = appGalleryReferrer && button?.kind === 'appgallery' ? appGalleryWithReferrer(button.href) : null;
    if (button && gallery) links[button.href] = gallery;
  }
  const fallback = openApp?.fallback?.href;
  if (openApp && fallback && isPlayLink(fallback)) {
    links[fallback] = withReferrer(fallback);
    if (openApp.method === 'intent') {
      links[openApp.href] = openApp.href.replace(
        encodeURIComponent(fallback),
        encodeURIComponent(withReferrer(fallback)),
      );
    }
  }
  if (openApp?.method === 'universal-link' && appLinkingDomain) {
    links[openApp.href] = `https://${appLinkingDomain}${CARRIER_PATH}${CARRIER_SLOT}`;
  }
  if (stampedApk) {
    const stamped = stampedUrl(stampedApk.origin, CARRIER_SLOT, stampedApk.file);
    for (const button of buttons) if (button?.apkPath) links[button.apkPath] = stamped;
    if (openApp && fallback && openApp.fallback?.apkPath) {
      links[openApp.fallback.apkPath] = stamped;
      // Chrome follows the intent's own fallback: the stamped URL goes inside it.
      if (openApp.method === 'intent') {
        links[openApp.href] = openApp.href.replace(encodeURIComponent(fallback), encodeURIComponent(stamped));
      }
    }
  }
  const copy = screen === 'landing' || (screen === 'download' && attribution.copy_on_download);
  return link ? { copy, links, link } : { copy, links };
}
