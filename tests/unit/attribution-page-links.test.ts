import { describe, expect, it } from 'vitest';
import { CARRIER_SLOT } from '../../shared/attribution.ts';
import type { DownloadView } from '../../shared/download-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';
import { appStoreQuery, pageLinks } from '../../worker/attribution/page-links.ts';

const PLAY = 'https://play.google.com/store/apps/details?id=com.pebble.notes';
const download = (href: string) =>
  ({ primary: { kind: 'store', href, label: 'Get it' }, stores: [] }) as unknown as DownloadView;
const config = { window_hours: 2, copy_on_download: false };

describe('pageLinks', () => {
  it('gives a Google Play link the carrier as its install referrer', () => {
    const view = pageLinks({
      attribution: config,
      download: download(PLAY),
      openApp: null,
      screen: 'download',
      appLinkingDomain: null,
    });
    expect(view.links).toEqual({ [PLAY]: `${PLAY}&referrer=${CARRIER_SLOT}` });
  });

  it("carries the referrer inside Chrome's intent fallback too", () => {
    const intent = `intent://open#Intent;scheme=pn;S.browser_fallback_url=${encodeURIComponent(PLAY)};end`;
    const openApp = { method: 'intent', href: intent, fallback: { href: PLAY } } as OpenAppView;
    const view = pageLinks({
      attribution: config,
      download: download(PLAY),
      openApp,
      screen: 'landing',
      appLinkingDomain: null,
    });
    expect(view.links[intent]).toBe(
      `intent://open#Intent;scheme=pn;S.browser_fallback_url=${encodeURIComponent(`${PLAY}&referrer=${CARRIER_SLOT}`)};end`,
    );
  });

  it("makes HarmonyOS NEXT's App Linking URL the carrier link on the link domain", () => {
    const openApp = { method: 'universal-link', href: 'https://open.example/open/?a=1', fallback: null } as OpenAppView;
    const view = pageLinks({
      attribution: config,
      download: download('https://appgallery.huawei.com/app/detail?id=C1'),
      openApp,
      screen: 'landing',
      appLinkingDomain: 'open.example',
    });
    expect(view.links).toEqual({ 'https://open.example/open/?a=1': `https://open.example/i/${CARRIER_SLOT}` });
  });

  it('copies on the landing screen always, on the download screen when configured', () => {
    const base = { download: download(PLAY), openApp: null, appLinkingDomain: null };
    expect(pageLinks({ ...base, attribution: config, screen: 'landing' }).copy).toBe(true);
    expect(pageLinks({ ...base, attribution: config, screen: 'download' }).copy).toBe(false);
    expect(pageLinks({ ...base, attribution: { ...config, copy_on_download: true }, screen: 'download' }).copy).toBe(
      true,
    );
    expect(pageLinks({ ...base, attribution: { ...config, copy_on_download: true }, screen: 'other' }).copy).toBe(
      false,
    );
  });
});

describe('appStoreQuery', () => {
  const campaign = (signed: Record<string, string>, plain: Record<string, string> = {}) => ({ signed, plain });

  it('is empty without a provider token', () => {
    expect(appStoreQuery(config, campaign({ channel: 'x' }))).toBe('');
  });

  it('carries the provider token and the channel, cut at 40 characters', () => {
    const long = 'c'.repeat(50);
    expect(appStoreQuery({ ...config, app_store_provider_token: '118342' }, campaign({ channel: long }))).toBe(
      `?pt=118342&ct=${'c'.repeat(40)}`,
    );
  });

  it('carries the token alone without a channel', () => {
    expect(appStoreQuery({ ...config, app_store_provider_token: '118342' }, campaign({}))).toBe('?pt=118342');
  });
});
