import { describe, expect, it } from 'vitest';
import { CARRIER_SLOT } from '../../shared/attribution.ts';
import type { DownloadView } from '../../shared/download-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';
import { pageLinks } from '../../worker/attribution/page-links.ts';
import { DEMO_CONFIG } from '../../worker/config/demo.ts';

const APK_PATH = '/android/app-2.4.0.apk';
const APK = `https://dl.example${APK_PATH}`;
const STAMPED = `https://lander.test/dl/${CARRIER_SLOT}/app-2.4.0.apk`;
const download = {
  primary: { kind: 'apk', href: APK, label: 'Download', apkPath: APK_PATH },
  stores: [],
} as unknown as DownloadView;
const stampedApk = { origin: 'https://lander.test', file: 'app-2.4.0.apk' };

const links = (openApp: OpenAppView | null, stamped = stampedApk) =>
  pageLinks({
    attribution: DEMO_CONFIG.attribution,
    download,
    openApp,
    screen: 'download',
    appLinkingDomain: null,
    stampedApk: stamped,
  }).links;

describe('page links with a parent APK uploaded', () => {
  it('template the APK button as the stamped URL, keyed by its path', () => {
    expect(links(null)).toEqual({ [APK_PATH]: STAMPED });
  });

  it('leave the APK alone without a parent', () => {
    expect(
      pageLinks({
        attribution: DEMO_CONFIG.attribution,
        download,
        openApp: null,
        screen: 'download',
        appLinkingDomain: null,
      }).links,
    ).toEqual({});
  });

  it('template a scheme link’s APK fallback by its path', () => {
    const open = { method: 'scheme', href: 'pebble://open', fallback: { href: APK, apkPath: APK_PATH } } as OpenAppView;
    expect(links(open)).toEqual({ [APK_PATH]: STAMPED });
  });

  it('put the stamped URL inside an intent link’s fallback', () => {
    const href = `intent://open#Intent;scheme=pebble;S.browser_fallback_url=${encodeURIComponent(APK)};end`;
    const open = { method: 'intent', href, fallback: { href: APK, apkPath: APK_PATH } } as OpenAppView;
    expect(links(open)[href]).toBe(
      `intent://open#Intent;scheme=pebble;S.browser_fallback_url=${encodeURIComponent(STAMPED)};end`,
    );
  });
});
