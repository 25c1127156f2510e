import { describe, expect, it, vi } from 'vitest';
import type { AppItem } from '../../shared/config/schema.ts';
import { verdictOf } from '../../shared/device/verdict.ts';
import { detectDevice } from '../../shared/device.ts';
import { DEMO_CONFIG } from '../../worker/config/demo.ts';
import { chooseOpenApp, intentUrl, type OpenAppInput } from '../../worker/render/open-app.ts';
import { UA } from '../fixtures/agents.ts';

const APK = { href: 'https://dl.test/a.apk', apkPath: '/a.apk' };
const APP_STORE = { href: 'https://apps.apple.com/app/id6740858208' };

function choose(agent: keyof typeof UA, change: Partial<OpenAppInput> = {}) {
  const device = verdictOf(detectDevice({ userAgent: UA[agent] }));
  return chooseOpenApp({
    appData: DEMO_CONFIG.appData,
    links: { universal_link_domain: 'open.app.test', paths: ['/open/*'] },
    device,
    env: 'development',
    pageHost: 'get.app.test',
    queryData: { channel: 'spring', inviter: 'Ann Lee' },
    download: device.operatingSystem === 'iOS' ? APP_STORE : APK,
    ...change,
  });
}

describe('how a tap opens the app, per device', () => {
  it('iOS Safari: the Universal Link domain with the query data, then the App Store', () => {
    expect(choose('iPhoneSafari')).toEqual({
      method: 'universal-link',
      href: 'https://open.app.test/open/?channel=spring&inviter=Ann+Lee',
      fallback: APP_STORE,
    });
  });

  it('iOS Safari without a Universal Link domain: the dev scheme and the timer', () => {
    expect(choose('iPhoneSafari', { links: { paths: ['/open/*'] } })).toEqual({
      method: 'scheme',
      href: 'pebblenotes-dev://open?channel=spring&inviter=Ann+Lee',
      fallback: APP_STORE,
    });
  });

  it("refuses a Universal Link domain that is the page's own host, tells why, and uses the scheme", () => {
    const onSameHost = vi.fn();
    const choice = choose('iPhoneSafari', { pageHost: 'OPEN.app.test', onSameHost });
    expect(choice?.method).toBe('scheme');
    expect(onSameHost).toHaveBeenCalledWith('open.app.test');
  });

  it('takes the first configured path up to its wildcard', () => {
    expect(
      choose('iPhoneSafari', { links: { universal_link_domain: 'u.test', paths: ['/go/app/*', '/x'] } })?.href,
    ).toBe('https://u.test/go/app/?channel=spring&inviter=Ann+Lee');
  });

  it('uses the pro scheme in production', () => {
    expect(choose('androidFirefox', { env: 'production' })?.href).toBe(
      'pebblenotes://open?channel=spring&inviter=Ann+Lee',
    );
  });

  it("Android Chrome: an intent URL with the package and Chrome's own fallback to the download", () => {
    expect(choose('androidChrome')).toEqual({
      method: 'intent',
      href: 'intent://open?channel=spring&inviter=Ann+Lee#Intent;scheme=pebblenotes-dev;package=com.pebble.notes;S.browser_fallback_url=https%3A%2F%2Fdl.test%2Fa.apk;end',
      fallback: APK,
    });
  });

  it('Android webviews, in-app browsers and Firefox: the plain scheme and the timer', () => {
    for (const agent of ['androidWebView', 'facebookAndroid', 'androidFirefox'] as const) {
      expect(choose(agent), agent).toEqual({
        method: 'scheme',
        href: 'pebblenotes-dev://open?channel=spring&inviter=Ann+Lee',
        fallback: APK,
      });
    }
  });

  it('the Baidu app and the Baidu browser: bdashighdown, on Android and iOS', () => {
    for (const agent of ['baiduAppAndroid', 'baiduBrowserAndroid'] as const) {
      expect(choose(agent)?.href, agent).toBe('bdashighdown://open?channel=spring&inviter=Ann+Lee');
    }
    const iosBaidu = `${UA.iPhoneSafari} baiduboxapp/13.58.0.10 (Baidu; P2 17.5)`;
    const device = verdictOf(detectDevice({ userAgent: iosBaidu }));
    const choice = chooseOpenApp({ ...baseInput(), device });
    expect(choice).toMatchObject({ method: 'scheme', href: 'bdashighdown://open' });
  });

  it('WeChat on Android blocks schemes: the guide', () => {
    expect(choose('weChatAndroid')).toEqual({
      method: 'guide',
      href: 'pebblenotes-dev://open?channel=spring&inviter=Ann+Lee',
      fallback: null,
    });
  });

  it('WeChat on iOS ≥ 7.0.5 follows a Universal Link; without one it gets the guide', () => {
    expect(choose('weChatIos')?.method).toBe('universal-link');
    expect(choose('weChatIos', { links: { paths: ['/open/*'] } })?.method).toBe('guide');
  });

  it('HarmonyOS: the scheme and the timer (no intent URLs)', () => {
    expect(choose('harmonyNext')?.method).toBe('scheme');
  });

  it('no link on a desktop or where no scheme is configured', () => {
    expect(choose('desktop')).toBeNull();
    const noSchemes = DEMO_CONFIG.appData.map(({ schemes: _, ...item }) => item as AppItem);
    expect(choose('androidChrome', { appData: noSchemes })).toBeNull();
  });

  it('takes the scheme of a plat 3 item when there is no item for the platform', () => {
    const all: AppItem[] = [{ ...(DEMO_CONFIG.appData[0] as AppItem), plat: 3, schemes: { dev: 'alld', pro: 'allp' } }];
    expect(choose('androidFirefox', { appData: all })?.href).toMatch(/^alld:\/\/open\?/);
    expect(choose('iPhoneSafari', { appData: all, links: { paths: ['/open/*'] } })?.href).toMatch(/^alld:\/\/open\?/);
  });

  it('carries no query string when there is no query data, and no fallback when nothing installs', () => {
    expect(choose('androidFirefox', { queryData: {}, download: null })).toEqual({
      method: 'scheme',
      href: 'pebblenotes-dev://open',
      fallback: null,
    });
  });

  it('encodes hostile query data so it cannot break out of the URL', () => {
    const href = choose('androidFirefox', { queryData: { inviter: '"><script>&x=1#' } })?.href ?? '';
    expect(href).toBe('pebblenotes-dev://open?inviter=%22%3E%3Cscript%3E%26x%3D1%23');
  });
});

describe('intent URLs', () => {
  it('leave out the package and the fallback when there are none', () => {
    expect(intentUrl('app', '', undefined, null)).toBe('intent://open#Intent;scheme=app;end');
  });
});

function baseInput(): OpenAppInput {
  return {
    appData: DEMO_CONFIG.appData,
    links: { universal_link_domain: 'open.app.test', paths: ['/open/*'] },
    device: verdictOf(detectDevice({ userAgent: UA.iPhoneSafari })),
    env: 'development',
    pageHost: 'get.app.test',
    queryData: {},
    download: APP_STORE,
  };
}
