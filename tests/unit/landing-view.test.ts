/** The landing's one button, decided on the worker (worker/render/landing-view.ts, docs/screens.md). */
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
  label: 'Open',
  guide: null,
};
const download = (primary: DownloadButton | null, guide: GuideView | null = null) =>
  ({ primary, guide }) as DownloadView;

describe('the landing view', () => {
  it('opens the app where a tap can', () => {
    expect(landingView(download(APK), OPEN)).toEqual({ button: { action: 'open-app', open: OPEN } });
  });

  it("offers the platform's download where the app cannot be opened, with the in-app guide if downloads are blocked", () => {
    expect(landingView(download(APK), null)).toEqual({ button: { action: 'download', download: APK, guide: null } });
    expect(landingView(download(APK, GUIDE), null)).toEqual({
      button: { action: 'download', download: APK, guide: GUIDE },
    });
  });

  it('has no button where nothing opens or installs', () => {
    expect(landingView(download(null), null)).toEqual({ button: null });
  });
});
