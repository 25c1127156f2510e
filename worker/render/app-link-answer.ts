/**
 * The answer to an app link that reached the browser (worker/app-links/app-link-fallback.ts): the
 * app is not installed, so the tap goes on to where it installs, the way hosted link services
 * answer (docs/screens.md, docs/campaign-links.md) — the App Store on an iPhone, AppGallery or the
 * APK on HarmonyOS and Android, as the download page would offer (download-choice.ts). The campaign
 * page (`/landing`, with the link's `d` token and plain parameters) answers where nothing installs
 * (a desktop), where this in-app browser blocks the download (its guide is there), and for every bot:
 * a previewer is never sent to another site, it reads the page's metadata. HarmonyOS NEXT's App
 * Linking link (`/i/<carrier>` on the link domain) is answered the same way.
 */
import type { Context } from 'hono';
import { APP_LINK_TARGET, atAppLinkPath } from '../app-links/app-link-fallback.ts';
import { carrierToken } from '../attribution/carrier.ts';
import { appStoreQuery } from '../attribution/page-links.ts';
import { pageQuery, readCampaign } from '../campaign/query-data.ts';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { chooseDownload } from './download-choice.ts';

/** A redirect that varies with the device: never kept by a cache between two visitors. */
function redirect(location: string, status: 302 | 307): Response {
  return new Response(null, { status, headers: { location, 'cache-control': 'private, no-store' } });
}

/** Where the app link's visitor goes: the device's download, or null for the campaign page. */
export function appLinkDownload(c: Context<AppEnv>, params: URLSearchParams): string | null {
  if (c.get('device').bot) return null;
  const { config } = c.get('config');
  const settings = settingsOf(c.env);
  const campaign = readCampaign(params, settings.decodeKey);
  const choice = chooseDownload({
    appData: config.appData,
    device: c.get('verdict'),
    downloadOrigin: settings.downloadOrigin,
    appStoreQuery: appStoreQuery(config.attribution, campaign),
  });
  if (!choice.primary || choice.guide) return null;
  // Mainland China: an APK starts only on the confirming tap of the campaign page (docs/screens.md).
  if (choice.primary.apkPath && config.china?.mainland) return null;
  return choice.primary.href;
}

/** The redirect for an app link path Lander has no page for, or null when the path is none of them. */
export function appLinkAnswer(c: Context<AppEnv>): Response | null {
  if (!atAppLinkPath(c)) return null;
  const params = new URL(c.req.url).searchParams;
  const download = appLinkDownload(c, params);
  return download
    ? redirect(download, 302)
    : redirect(`${c.get('appBase') ?? ''}${APP_LINK_TARGET}${pageQuery(params)}`, 307);
}

/**
 * HarmonyOS NEXT's App Linking link is `https://<link domain>/i/<carrier>` (worker/attribution/page-links.ts):
 * reached in a browser on the link domain, the app is not installed, and the tap goes on to the
 * device's download like `/open/`. On any other host, and where nothing installs here (a bot, a
 * desktop), `/i/<carrier>` stays the carrier page.
 */
export function carrierLinkAnswer(c: Context<AppEnv>, carrier: string): Response | null {
  const domain = c.get('config').config.links.universal_link_domain;
  if (!domain || new URL(c.req.url).hostname !== domain) return null;
  const token = carrierToken(carrier);
  const download = appLinkDownload(c, new URLSearchParams(token ? { d: token } : {}));
  return download ? redirect(download, 302) : null;
}
