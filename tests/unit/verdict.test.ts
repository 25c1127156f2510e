import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../shared/device/verdict.ts';
import { type DeviceInfo, detectDevice } from '../../shared/device.ts';
import { UA } from '../fixtures/agents.ts';

const detect = (userAgent: string, change: Partial<DeviceInfo> = {}): DeviceInfo => ({
  ...detectDevice({ userAgent }),
  ...change,
});
const verdictFor = (userAgent: string) => verdictOf(detect(userAgent));

const WECHAT_IOS = (version: string) =>
  `Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/${version}(0x18002f2c) NetType/WIFI Language/zh_CN`;

describe('the verdict of a device', () => {
  it('is one frozen object for every device with the same verdict', () => {
    const pixel = verdictFor(UA.androidChrome);
    const reduced = verdictFor(UA.androidChromeReduced);
    expect(reduced).toBe(pixel);
    expect(Object.isFrozen(pixel)).toBe(true);
  });

  it('freezes the in-app browser it holds', () => {
    const { inApp } = verdictFor(UA.weChatIos);
    expect(inApp).not.toBeNull();
    expect(Object.isFrozen(inApp)).toBe(true);
  });

  it('holds no referrer, locale, model or version: devices that differ only there share one', () => {
    const plain = verdictOf(detectDevice({ userAgent: UA.androidChrome }));
    const other = verdictOf(
      detectDevice({
        userAgent: UA.androidChrome.replace('Pixel 8', 'SM-S918B').replace('Android 14', 'Android 13'),
        referrer: 'https://ads.example/?gclid=1',
        acceptLanguage: 'de-DE',
      }),
    );
    expect(other).toBe(plain);
  });

  it('is a webview for an Android agent with `; wv)`, not for Android Chrome', () => {
    expect(verdictFor(UA.androidWebView).webView).toBe(true);
    expect(verdictFor(UA.androidChrome).webView).toBe(false);
  });

  it('is a webview only on Android, whatever the agent says', () => {
    for (const operatingSystem of ['iOS', 'Harmony', 'PC'] as const) {
      expect(verdictOf(detect(UA.androidWebView, { operatingSystem })).webView, operatingSystem).toBe(false);
    }
  });

  it('installs APKs on HarmonyOS 2–4, not on HarmonyOS NEXT', () => {
    expect(verdictFor(UA.harmony4).installsApk).toBe(true);
    expect(verdictFor(UA.harmonyNext).installsApk).toBe(false);
    const nextWithAndroidToken = 'Mozilla/5.0 (Linux; Android 10; OpenHarmony 6.0) ArkWeb/6.0 Mobile';
    expect(verdictOf(detect(nextWithAndroidToken, { operatingSystem: 'Harmony' })).installsApk).toBe(false);
  });

  it('installs APKs only on HarmonyOS: an Android agent is not a HarmonyOS 2–4 one', () => {
    expect(verdictFor(UA.androidChrome).installsApk).toBe(false);
    expect(verdictOf(detect(UA.harmony4, { operatingSystem: 'Android' })).installsApk).toBe(false);
  });

  it('names the browser Chrome, Baidu or other', () => {
    expect(verdictFor(UA.androidChrome).browser).toBe('Chrome');
    expect(verdictFor(UA.desktop).browser).toBe('Chrome');
    expect(verdictFor(UA.baiduBrowserAndroid).browser).toBe('Baidu');
    expect(verdictFor(UA.baiduAppAndroid).browser).toBe('Baidu');
    for (const agent of [UA.iPhoneSafari, UA.androidFirefox, UA.harmony4] as const) {
      expect(verdictFor(agent).browser, agent).toBe('other');
    }
  });

  it("is not split by the in-app app's version", () => {
    const older = verdictFor(WECHAT_IOS('8.0.47'));
    expect(verdictFor(WECHAT_IOS('8.0.50'))).toBe(older);
    expect(older.inApp).not.toHaveProperty('version');
  });

  it('is split where the version changes what a Universal Link does', () => {
    const before = verdictFor(WECHAT_IOS('7.0.4'));
    const since = verdictFor(WECHAT_IOS('7.0.5'));
    expect(before).not.toBe(since);
    expect([before.inApp?.universalLinks, since.inApp?.universalLinks]).toEqual([false, true]);
  });

  it('keeps bots apart', () => {
    expect(verdictFor(UA.desktop)).not.toBe(verdictOf(detect(UA.desktop, { bot: true })));
  });

  it('does not split on mobile: no screen decides with it (an Android tablet gets the phone’s page)', () => {
    const phone = detect(UA.androidChrome, { mobile: true });
    const tablet = detect(UA.androidChrome, { mobile: false });
    expect(verdictOf(tablet)).toBe(verdictOf(phone));
    expect('mobile' in verdictOf(phone)).toBe(false);
  });
});
