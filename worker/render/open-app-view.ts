/**
 * The open-app link for one request (docs/screens.md): the href a tap follows on this device,
 * decided here so the server HTML already carries it, worded in the visitor's language as the
 * download page's secondary link (the landing page words its own, landing-view.ts).
 */
import { type Campaign, campaignQuery } from '../../shared/campaign.ts';
import type { LanderConfig } from '../../shared/config/schema.ts';
import type { Verdict } from '../../shared/device/verdict.ts';
import type { DownloadView } from '../../shared/download-view.ts';
import type { Handoff } from '../../shared/handoff.ts';
import type { OpenAppView, OpenFallback } from '../../shared/open-app-view.ts';
import { downloadTexts, guideView, withApp } from './download-texts.ts';
import { chooseOpenApp } from './open-app.ts';

export interface OpenAppViewInput {
  config: LanderConfig;
  device: Verdict;
  env: Handoff['env'];
  language: Handoff['language'];
  pageUrl: URL;
  /** Carried to the app (docs/campaign-links.md). */
  campaign: Campaign;
  /** The download page's view for this device: its primary button is the fallback. */
  download: DownloadView;
}

/**
 * Where the app-not-installed fallback goes; none where downloads are blocked (the guide covers
 * them), and no APK where the page serves mainland China: there an APK starts only on the
 * visitor's confirming tap, never after a timer or from Chrome's intent (docs/screens.md).
 */
function fallbackOf(download: DownloadView, mainland: boolean): OpenFallback | null {
  const primary = download.primary;
  if (!primary || download.guide) return null;
  if (primary.apkPath && mainland) return null;
  return primary.apkPath ? { href: primary.href, apkPath: primary.apkPath } : { href: primary.href };
}

export function openAppView({
  config,
  device,
  env,
  language,
  pageUrl,
  campaign,
  download,
}: OpenAppViewInput): OpenAppView | null {
  const choice = chooseOpenApp({
    appData: config.appData,
    links: config.links,
    device,
    env,
    pageHost: pageUrl.hostname,
    queryData: campaignQuery(campaign),
    download: fallbackOf(download, config.china?.mainland === true),
    onSameHost: (domain) =>
      console.error(
        `Config error: links.universal_link_domain "${domain}" is this page's own host; links on it never open the app, so the URL scheme is used`,
      ),
  });
  if (!choice) return null;
  const t = downloadTexts(language);
  return {
    ...choice,
    // The download page's secondary link: beside a download it is for those who have the app.
    label: download.primary ? t.alreadyHaveIt : withApp(t.openInApp, download.name),
    installedLabel: null,
    guide: choice.method === 'guide' ? guideView(t, 'open', device.operatingSystem) : null,
  };
}
