/**
 * Builds the hand-off (shared/handoff.ts, docs/config.md) for one request: only what the browser may see, and
 * everything the screens show, made from its inputs alone — kept pages are keyed by those (page-cache.ts).
 */
import type { Context } from 'hono';
import type { ApkParentFacts } from '../../shared/apk-parent.ts';
import type { Campaign } from '../../shared/campaign.ts';
import { NO_CAMPAIGN, pageCampaign } from '../../shared/campaign.ts';
import type { LanderConfig } from '../../shared/config/schema.ts';
import type { Verdict } from '../../shared/device/verdict.ts';
import type { DeviceInfo } from '../../shared/device.ts';
import type { Handoff } from '../../shared/handoff.ts';
import { type ShownPreview, shownPreview } from '../../shared/link-preview.ts';
import type { SiteMeta } from '../../shared/page-meta.ts';
import type { Language } from '../../shared/texts.ts';
import { type ApkParents, NO_PARENTS } from '../apk/parents.ts';
import { carrierToken } from '../attribution/carrier.ts';
import { appStoreQuery, pageLinks } from '../attribution/page-links.ts';
import { carriedBuild } from '../builds/carried-build.ts';
import { pageQuery, readCampaign } from '../campaign/query-data.ts';
import { appItemFor } from '../config/app-item.ts';
import type { AppEnv, PageIdentity } from '../env.ts';
import { pageOf } from '../lib/page-of.ts';
import { type Settings, settingsOf } from '../settings.ts';
import { shownKey } from '../variants/choose-variant.ts';
import { aboutParts } from './about-view.ts';
import { downloadView } from './download-view.ts';
import { landingView, withArm, withVariant } from './landing-view.ts';
import { openAppView } from './open-app-view.ts';
import { siteMeta } from './site-meta.ts';

/**
 * Everything a hand-off is made from. `makeHandoff` reads nothing else (no request, no context), so two
 * requests with the same inputs get the same hand-off: the page cache keys pages by these (page-cache.ts).
 * None is the raw request: the address keeps only the query a page reads, the device only its verdict.
 */
export interface HandoffInputs {
  /**
   * The page's address as the visitor sees it: origin, the app's base path, path and the query a page
   * reads (campaign/query-data.ts `pageQuery`).
   */
  url: URL;
  /** The app's base path on this host (docs/routes.md#apps): `/@notes`, or ''. */
  base: string;
  /** Which page that address is, as the route table says (lib/page-of.ts): one frozen object per path. */
  page: PageIdentity;
  language: Language;
  /** What the pages read of the device: one frozen object per verdict (shared/device/verdict.ts). */
  verdict: Verdict;
  /** On `/test` only, the whole detection its device table shows (docs/screens.md); else null. */
  device: DeviceInfo | null;
  /** The configuration in use: one object per document read from KV (config/load-config.ts). */
  config: LanderConfig;
  /** Why the bundled demo is served, if it is. */
  fallback: string | null;
  /** The environment's settings: one object per environment (settings.ts). */
  settings: Settings;
  /** The uploaded parent APKs: one object per record read from KV (apk/parents-loader.ts). */
  apkParents: ApkParents;
  /** On `/s/<slug>`, the stored link's campaign token (campaign/short-link.ts); else null. */
  linkToken: string | null;
  /** On `/s/<slug>` of a link with variants, what the visitor's variant shows, as JSON (variants/choose-variant.ts). */
  variant: string | null;
  /** On `/s/<slug>` with a preview, the one its head shows, as JSON (shared/link-preview.ts); else null. */
  preview: string | null;
}

/**
 * The preview of the short link `c` shows (docs/smart-links.md#previews), as JSON: the link's, with
 * its variant's fields over it (a bot's variant is the control, variants/choose-variant.ts).
 */
function previewKey(c: Context<AppEnv>, base: string): string | null {
  const link = c.get('link');
  if (!link) return null;
  const shown = shownPreview(`${new URL(c.req.url).origin}${base}`, link.slug, link.preview, c.get('variant')?.preview);
  return shown ? JSON.stringify(shown) : null;
}

/** The head's site metadata with the link's `preview` (JSON, `previewKey`) over it. */
function withPreview(site: SiteMeta, preview: string | null): SiteMeta {
  if (!preview) return site;
  const shown = JSON.parse(preview) as ShownPreview;
  return { ...site, ...shown, linkPreview: true };
}

/** The address a page is made from: `url` with only the query a page reads (a bare `?` included). */
export function pageAddress(url: URL): URL {
  const bare = url.href.length === url.origin.length + url.pathname.length;
  return bare ? url : new URL(`${url.origin}${url.pathname}${pageQuery(url.searchParams)}`);
}

/** `url` (the app's own, apps/request-app.ts) as the visitor asked for it: its path under `base`. */
export function withBase(url: URL, base: string): URL {
  const visible = new URL(url);
  visible.pathname = `${base}${url.pathname}`;
  return visible;
}

/**
 * The inputs of the page `c` asks for, whose URL is `url` (parsed once by the caller), with the
 * uploaded APK parents the caller awaited (`apkParents` on the context).
 */
export function handoffInputs(c: Context<AppEnv>, url: URL, apkParents: ApkParents = NO_PARENTS): HandoffInputs {
  const { config, fallback } = c.get('config');
  const page = pageOf(c);
  const base = c.get('appBase') ?? '';
  return {
    url: pageAddress(base ? withBase(url, base) : url),
    base,
    page,
    language: c.get('language'),
    verdict: c.get('verdict'),
    device: page.page === 'diagnostics' ? c.get('device') : null,
    config,
    fallback,
    settings: settingsOf(c.env),
    apkParents,
    linkToken: c.get('link')?.token ?? null,
    variant: shownKey(c.get('variant')),
    preview: previewKey(c, base),
  };
}

// The last campaign read and what it was read from: a page's rules read its token's campaign before
// the page does (render/link-rules.ts), the hand-off and the page's view read it again, and the same
// poster's URL comes again and again; a campaign is never changed once read, so one object serves them all.
let lastRead: { key: string | undefined; token: string | null; search: string; campaign: Campaign } | null = null;

/**
 * The page's campaign with every field the token signed (the channel included): its query's, or on a
 * carrier page (`/i/<carrier>`, docs/attribution.md) the carrier's token, on a short link's page
 * (docs/operators.md) the link's token, read as the `d` parameter. The page's view is counted under it;
 * the hand-off carries only the fields the page shows (`pageCampaign`).
 */
export function campaignOf(url: URL, page: PageIdentity, key: string | undefined, linkToken: string | null): Campaign {
  const token = linkToken ?? (page.carrier ? carrierToken(page.carrier) : null);
  const { search } = url;
  if (!token && !search) return NO_CAMPAIGN;
  if (lastRead && lastRead.key === key && lastRead.token === token && lastRead.search === search) {
    return lastRead.campaign;
  }
  let params = url.searchParams;
  if (token) {
    params = new URLSearchParams(params);
    params.set('d', token);
  }
  const campaign = readCampaign(params, key);
  lastRead = { key, token, search, campaign };
  return campaign;
}

/** The campaign of the page made from `inputs` (`campaignOf`). */
export const visitCampaign = (inputs: HandoffInputs): Campaign =>
  campaignOf(inputs.url, inputs.page, inputs.settings.decodeKey, inputs.linkToken);

/** Which screen a page shows, as far as attribution cares: the campaign pages always copy the carrier. */
function tapScreenOf({ page }: PageIdentity): 'download' | 'landing' | 'other' {
  if (page === 'download') return 'download';
  return page === 'landing' || page === 'carrier' || page === 'short' ? 'landing' : 'other';
}

/** The parent uploaded for the configured Android app, if any (docs/apk-stamping.md). */
function androidParent(config: LanderConfig, parents: ApkParents): ApkParentFacts | null {
  const item = appItemFor(config.appData, 1);
  return (item?.package && parents[item.package]) || null;
}

/** The hand-off made from `inputs`. */
export function makeHandoff(inputs: HandoffInputs): Handoff {
  const { url, base, page, language, verdict, device, config, fallback, settings, apkParents, variant, preview } =
    inputs;
  const { downloadOrigin, env } = settings;
  const campaign = visitCampaign(inputs);
  const query = appStoreQuery(config.attribution, campaign);
  const download = downloadView({
    config,
    device: verdict,
    language,
    downloadOrigin,
    pageUrl: url,
    appStoreQuery: query,
  });
  const openApp = openAppView({ config, device: verdict, env, language, pageUrl: url, campaign, download });
  const appLinking = verdict.operatingSystem === 'Harmony' && openApp?.method === 'universal-link';
  const apkParent = androidParent(config, apkParents);
  return {
    buildId: carriedBuild.id,
    env,
    diagnostics: settings.diagnostics,
    cookieless: settings.cookieless,
    origin: url.origin,
    base,
    language,
    deviceInfo: device ?? verdict,
    campaign: pageCampaign(campaign),
    downloadOrigin,
    traceOrigin: settings.traceOrigin || url.origin,
    // Only what the browser reads: every byte here is in every page (docs/config.md).
    appData: config.appData.map(({ plat, version }) => ({ plat, version })),
    domains: config.domains,
    commonConfig: { probe_path: config.commonConfig.probe_path },
    debug: config.commonConfig.debug,
    config: { revision: config.revision, fallback },
    site: withPreview(siteMeta(config, language), preview),
    download,
    openApp,
    landing: withVariant(landingView(download, openApp, language), variant),
    attribution: withArm(
      pageLinks({
        attribution: config.attribution,
        download,
        openApp,
        screen: tapScreenOf(page),
        link: page.page === 'short' ? page.slug : undefined,
        appLinkingDomain: appLinking ? (config.links.universal_link_domain ?? null) : null,
        appGalleryReferrer: verdict.installsApk,
        stampedApk: apkParent && { origin: `${url.origin}${base}`, file: apkParent.file },
      }),
      variant,
    ),
    apkParent,
    ...aboutParts({
      config,
      language,
      operatingSystem: verdict.operatingSystem,
      apkParent,
      visitorScreen: tapScreenOf(page) !== 'other',
    }),
  };
}
