import { describe, expect, it } from 'vitest';
import type { AppItem } from '../../shared/config/schema.ts';
import { harmonyInstallsApk, type Verdict, verdictOf } from '../../shared/device/verdict.ts';
import { detectDevice } from '../../shared/device.ts';
import { chooseDownload } from '../../worker/render/download-choice.ts';
import { UA } from '../fixtures/agents.ts';

const ORIGIN = 'https://dl.example';
const android: AppItem = {
  plat: 1,
  logo_url: '/a.png',
  name: 'Android app',
  version: '2.0',
  size: '30 MB',
  updated_at: '2026-01-01',
  download_url: '/app.apk',
  store_url: 'https://play.example/app',
};
const ios: AppItem = {
  plat: 2,
  logo_url: '/i.png',
  name: 'iOS app',
  version: '2.1',
  size: '50 MB',
  updated_at: '2026-01-02',
  app_store_id: '123456789',
};
const wechat = { name: 'WeChat', category: 'messaging', blocksDownloads: true, blocksSchemes: true } as const;

type Device = Pick<Verdict, 'operatingSystem' | 'installsApk' | 'inApp'>;
const device = (operatingSystem: Device['operatingSystem'], inApp: Device['inApp'] = null): Device => ({
  operatingSystem,
  installsApk: false,
  inApp,
});
// HarmonyOS devices as the worker hands them on: detected from the agent, then reduced to the verdict.
const harmony = (agent: string): Verdict => verdictOf(detectDevice({ userAgent: agent }));

const HARMONY_4 = UA.harmony4;
const HARMONY_NEXT = UA.harmonyNext;

describe('the download chosen for a device', () => {
  it('sends iOS to the App Store id of its item', () => {
    const choice = chooseDownload({ appData: [android, ios], device: device('iOS'), downloadOrigin: ORIGIN });
    expect(choice.primary).toEqual({
      kind: 'app-store',
      href: 'https://apps.apple.com/app/id123456789',
      appStoreId: '123456789',
    });
    expect(choice.app).toBe(ios);
  });

  it('offers no App Store button when the iOS item names no id, never the demo app', () => {
    const { app_store_id: _, ...bare } = ios;
    const choice = chooseDownload({ appData: [bare], device: device('iOS'), downloadOrigin: ORIGIN });
    expect(choice.primary).toBeNull();
    const desktop = chooseDownload({ appData: [bare, android], device: device('PC'), downloadOrigin: ORIGIN });
    expect(desktop.stores.map((store) => store.kind)).toEqual(['apk']);
  });

  it('sends Android to the APK on the download origin, remembering its path', () => {
    const choice = chooseDownload({ appData: [android, ios], device: device('Android'), downloadOrigin: ORIGIN });
    expect(choice.primary).toEqual({ kind: 'apk', href: 'https://dl.example/app.apk', apkPath: '/app.apk' });
  });

  it('sends Android to the store URL when there is no APK', () => {
    const { download_url: _, ...storeOnly } = android;
    const choice = chooseDownload({ appData: [storeOnly], device: device('Android'), downloadOrigin: ORIGIN });
    expect(choice.primary).toEqual({ kind: 'store', href: 'https://play.example/app' });
  });

  it('uses an item with plat 3 for every platform', () => {
    const all = { ...android, plat: 3 as const, app_store_id: '555555555' };
    expect(chooseDownload({ appData: [all], device: device('iOS'), downloadOrigin: ORIGIN }).primary?.href).toBe(
      'https://apps.apple.com/app/id555555555',
    );
    expect(chooseDownload({ appData: [all], device: device('Android'), downloadOrigin: ORIGIN }).primary?.kind).toBe(
      'apk',
    );
  });

  it('sends HarmonyOS to AppGallery when configured', () => {
    const choice = chooseDownload({
      appData: [{ ...android, appgallery_id: 'C1234' }],
      device: harmony(HARMONY_NEXT),
      downloadOrigin: ORIGIN,
    });
    expect(choice.primary).toEqual({ kind: 'appgallery', href: 'https://appgallery.huawei.com/app/detail?id=C1234' });
  });

  it('gives HarmonyOS 2–4 the APK when there is no AppGallery id', () => {
    const choice = chooseDownload({ appData: [android], device: harmony(HARMONY_4), downloadOrigin: ORIGIN });
    expect(choice.primary?.kind).toBe('apk');
  });

  it('gives HarmonyOS NEXT no APK (it cannot install one)', () => {
    const choice = chooseDownload({
      appData: [android],
      device: harmony(HARMONY_NEXT),
      downloadOrigin: ORIGIN,
    });
    expect(choice.primary).toBeNull();
  });

  it('tells Android-based HarmonyOS from NEXT by the agent tokens', () => {
    expect(harmonyInstallsApk(HARMONY_4)).toBe(true);
    expect(harmonyInstallsApk(HARMONY_NEXT)).toBe(false);
    expect(harmonyInstallsApk('Mozilla/5.0 (Linux; Android 10; OpenHarmony 6.0) ArkWeb/6.0 Mobile')).toBe(false);
  });

  it('gives a desktop both store buttons and no primary button', () => {
    const choice = chooseDownload({ appData: [android, ios], device: device('PC'), downloadOrigin: ORIGIN });
    expect(choice.primary).toBeNull();
    expect(choice.stores.map((s) => s.kind)).toEqual(['app-store', 'apk']);
  });

  it('shows the guide in an in-app browser that blocks downloads', () => {
    const choice = chooseDownload({
      appData: [android],
      device: device('Android', wechat),
      downloadOrigin: ORIGIN,
    });
    expect(choice.guide).toBe(true);
    expect(choice.primary?.kind).toBe('apk');
  });

  it('sends Android WeChat to the YYB link instead, without the guide, when one is set', () => {
    const yyb = 'https://a.app.qq.com/o/simple.jsp?pkgname=com.x&android_schema=x%3A%2F%2F';
    const choice = chooseDownload({
      appData: [{ ...android, yyb_url: yyb }],
      device: device('Android', wechat),
      downloadOrigin: ORIGIN,
    });
    expect(choice.primary).toEqual({ kind: 'yyb', href: yyb });
    expect(choice.guide).toBe(false);
  });

  it('does not send iOS WeChat to YYB', () => {
    const choice = chooseDownload({
      appData: [{ ...android, yyb_url: 'https://a.app.qq.com/x' }, ios],
      device: device('iOS', wechat),
      downloadOrigin: ORIGIN,
    });
    expect(choice.primary?.kind).toBe('app-store');
    expect(choice.guide).toBe(true);
  });
});
