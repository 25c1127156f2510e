/**
 * Builds the download page's view (docs/screens.md) for one request: the device's button from the
 * configuration, worded in the visitor's language, plus the desktop QR code and the in-app guide.
 */

import type { LanderConfig } from '../../shared/config/schema.ts';
import type { Verdict } from '../../shared/device/verdict.ts';
import type { DownloadButton, DownloadView } from '../../shared/download-view.ts';
import type { Handoff } from '../../shared/handoff.ts';
import { localize } from '../config/localize.ts';
import { qrImage } from '../lib/qr-code.ts';
import { chooseDownload, type DownloadTarget } from './download-choice.ts';
import { type DownloadTexts, downloadTexts, formatDate, guideView } from './download-texts.ts';

export interface DownloadViewInput {
  config: LanderConfig;
  device: Verdict;
  language: Handoff['language'];
  downloadOrigin: string;
  /** The page's address (render/handoff.ts `pageAddress`): the desktop QR code opens it. */
  pageUrl: URL;
  /** Added to App Store links (worker/attribution/page-links.ts). */
  appStoreQuery?: string;
}

const LABEL = {
  'app-store': 'appStore',
  apk: 'apk',
  appgallery: 'appGallery',
  store: 'store',
  yyb: 'yyb',
} as const satisfies Record<DownloadTarget['kind'], keyof DownloadTexts>;

function button(target: DownloadTarget, label: string): DownloadButton {
  return target.apkPath
    ? { kind: target.kind, href: target.href, label, apkPath: target.apkPath }
    : { kind: target.kind, href: target.href, label };
}

export function downloadView({
  config,
  device,
  language,
  downloadOrigin,
  pageUrl,
  appStoreQuery,
}: DownloadViewInput): DownloadView {
  const t = downloadTexts(language);
  const choice = chooseDownload({ appData: config.appData, device, downloadOrigin, appStoreQuery });
  const { app, layout } = choice;
  const common = config.commonConfig;
  const qrUrl = layout === 'PC' ? pageUrl.href : null;
  const qr = qrUrl ? qrImage(qrUrl) : null;
  return {
    layout,
    name: localize(app.name, language),
    tagline: localize(common.tagline, language),
    logo: app.logo_url,
    facts: [
      { label: t.version, value: app.version },
      { label: t.size, value: app.size },
      { label: t.updated, value: formatDate(app.updated_at, language) },
    ],
    featuresHeading: t.features,
    features: common.features.map((line) => localize(line, language)),
    screenshotsHeading: t.screenshots,
    screenshots: common.screenshots.map((s) => ({ src: s.url, alt: localize(s.alt, language) })),
    // Where this in-app browser blocks the download, the button says the step that works (docs/screens.md).
    primary: choice.primary
      ? button(choice.primary, choice.guide ? t.openInBrowserToDownload : t[LABEL[choice.primary.kind]])
      : null,
    stores: choice.stores.map((s) => button(s, s.kind === 'app-store' ? t.appStoreShort : t.apkShort)),
    note: layout !== 'PC' && !choice.primary ? t.unavailable : null,
    qr: qr && qrUrl ? { ...qr, heading: t.qrHeading, caption: t.qrCaption, alt: t.qrAlt, url: qrUrl } : null,
    guide: choice.guide ? guideView(t, 'download', layout) : null,
    smartBannerAppId:
      layout === 'iOS' && !device.inApp && choice.primary?.kind === 'app-store'
        ? (choice.primary.appStoreId ?? null)
        : null,
  };
}
