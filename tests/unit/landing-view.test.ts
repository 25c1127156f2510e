/** The landing's one button, decided and worded on the worker (worker/render/landing-view.ts, docs/screens.md). */
import { describe, expect, it } from 'vitest';
import type { DownloadButton, DownloadView, GuideView } from '../../shared/download-view.ts';
import type { OpenAppView } from '../../shared/open-app-view.ts';
import { landingView } from '../../worker/render/landing-view.ts';

const APK: DownloadButton = { kind: 'apk', href: 'https://dl.test/a.apk', label: 'Download', apkPath: '/a.apk' };
const GUIDE: GuideView = { title: 'Open in browser', steps: ['Menu'], close: 'OK' };
const OPEN: OpenAppView = {
  method: 'scheme',
  href: 'lander://open',
  fallback: { href: APK.href, apkPath: '/a.apk' },
  label: 'Already have it? Open it',
  installedLabel: null,
  guide: null,
};
const download = (primary: DownloadButton | null, guide: GuideView | null = null) =>
  ({ primary, guide, name: 'Pebble Notes' }) as DownloadView;

describe('the landing view', () => {
  it('opens the app where a tap can, worded for a visitor who may not have it, in both languages', () => {
    expect(landingView(download(APK), OPEN, 'en')).toEqual({
      button: {
        action: 'open-app',
        open: { ...OPEN, label: 'Get Pebble Notes', installedLabel: 'Open in Pebble Notes' },
      },
    });
    expect(landingView(download(APK), OPEN, 'zh-CN').button).toMatchObject({
      open: { label: '获取 Pebble Notes', installedLabel: '在 Pebble Notes 中打开' },
    });
  });

  it('says "Open in <app>" where nothing installs, so the tap can only open it', () => {
    const open = { ...OPEN, fallback: null };
    expect(landingView(download(null), open, 'en').button).toMatchObject({
      action: 'open-app',
      open: { label: 'Open in Pebble Notes', installedLabel: null },
    });
  });

  it("offers the platform's download where the app cannot be opened, with the in-app guide if downloads are blocked", () => {
    expect(landingView(download(APK), null, 'en')).toEqual({
      button: { action: 'download', download: APK, guide: null },
    });
    expect(landingView(download(APK, GUIDE), null, 'en')).toEqual({
      button: { action: 'download', download: APK, guide: GUIDE },
    });
    // An in-app browser that blocks the scheme too: the download's guide is the step that works.
    const blocked = { ...OPEN, method: 'guide' as const, fallback: null, guide: GUIDE };
    expect(landingView(download(APK, GUIDE), blocked, 'en').button).toMatchObject({ action: 'download' });
  });

  it('words the open guide as the step that works where nothing installs and schemes are blocked', () => {
    const blocked = { ...OPEN, method: 'guide' as const, fallback: null, guide: GUIDE };
    expect(landingView(download(null), blocked, 'zh-CN').button).toMatchObject({
      action: 'open-app',
      open: { label: '在浏览器中打开以打开 App', guide: GUIDE },
    });
  });

  it('has no button where nothing opens or installs', () => {
    expect(landingView(download(null), null, 'en')).toEqual({ button: null });
  });
});
