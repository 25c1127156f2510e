import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { UA } from '../../fixtures/agents.ts';
import { DEMO as demo } from '../../fixtures/config.ts';
import { clearConfig, fetchWorker, get, handoffOf, ORIGIN, storeConfig } from '../helpers.ts';

const APK = `${env.DOWNLOAD_ORIGIN}/android/pebble-notes-2.4.0.apk`;
// The demo configuration gives a provider token: App Store links carry it and the channel (docs/attribution.md).
const APP_STORE = 'https://apps.apple.com/app/id6740858208?pt=118342&ct=spring';

type Agent = keyof typeof UA;

/** The "Open the app" link of `/` as the server HTML has it: its attributes, decoded. */
function openLink(html: string, className = 'button-open'): Record<string, string> | null {
  const tag = new RegExp(`<a class="button ${className}"([^>]*)>`).exec(html)?.[1];
  if (tag === undefined) return null;
  const attrs: Record<string, string> = {};
  for (const [, name = '', value = ''] of tag.matchAll(/ ([\w-]+)="([^"]*)"/g)) {
    attrs[name] = value
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'");
  }
  return attrs;
}

async function page(agent: Agent, path = '/?channel=spring'): Promise<string> {
  return (await get(path, { userAgent: UA[agent] })).text();
}

async function seedLinks(links: Record<string, unknown>): Promise<void> {
  await storeConfig({ ...demo, links });
}

afterEach(async () => {
  await clearConfig();
  vi.restoreAllMocks();
});

describe('"Open the app" on / — the href in the server HTML per device', () => {
  it('iOS Safari with a Universal Link domain: the https link, falling back to the App Store', async () => {
    expect(openLink(await page('iPhoneSafari'))).toEqual({
      href: 'https://open.pebble-notes.example/open/?channel=spring',
      'data-open': 'universal-link',
      'data-fallback': APP_STORE,
    });
  });

  it('iOS Safari without a Universal Link domain: the dev scheme', async () => {
    await seedLinks({});
    expect(openLink(await page('iPhoneSafari'))).toMatchObject({
      href: 'pebblenotes-dev://open?channel=spring',
      'data-open': 'scheme',
      'data-fallback': APP_STORE,
    });
  });

  it("refuses a Universal Link domain that is the page's own host and logs the config error", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await seedLinks({ universal_link_domain: new URL(ORIGIN).hostname });
    expect(openLink(await page('iPhoneSafari'))?.href).toBe('pebblenotes-dev://open?channel=spring');
    expect(error).toHaveBeenCalledWith(expect.stringContaining('links.universal_link_domain "lander.test"'));
  });

  it('Android Chrome: the intent URL with package and browser_fallback_url to the APK', async () => {
    expect(openLink(await page('androidChrome'))).toEqual({
      href: `intent://open?channel=spring#Intent;scheme=pebblenotes-dev;package=com.pebble.notes;S.browser_fallback_url=${encodeURIComponent(APK)};end`,
      'data-open': 'intent',
      'data-fallback': APK,
      'data-apk': '/android/pebble-notes-2.4.0.apk',
    });
  });

  it('an Android in-app webview (Facebook) and Firefox for Android: the plain scheme', async () => {
    for (const agent of ['facebookAndroid', 'androidFirefox'] as const) {
      expect(openLink(await page(agent)), agent).toMatchObject({
        href: 'pebblenotes-dev://open?channel=spring',
        'data-open': 'scheme',
        'data-fallback': APK,
      });
    }
  });

  it('the Baidu app and browser: bdashighdown', async () => {
    for (const agent of ['baiduAppAndroid', 'baiduBrowserAndroid'] as const) {
      expect(openLink(await page(agent))?.href, agent).toBe('bdashighdown://open?channel=spring');
    }
  });

  it('WeChat on Android: a guide link without a fallback, the guide worded in the store', async () => {
    const html = await page('weChatAndroid');
    expect(openLink(html)).toEqual({ href: 'pebblenotes-dev://open?channel=spring', 'data-open': 'guide' });
    expect(handoffOf(html).handoff.openApp.guide.title).toBe('Open this page in your browser to open the app');
  });

  it('production uses the pro scheme', async () => {
    // Production serves only a configuration in KV, never the bundled demo (docs/config.md#production).
    await storeConfig(demo);
    const res = await fetchWorker(
      `${ORIGIN}/`,
      { headers: { 'user-agent': UA.androidFirefox } },
      { ...env, LANDER_ENV: 'production' },
    );
    expect(openLink(await res.text())?.href).toBe('pebblenotes://open');
  });

  it('no link on a desktop, nor where the configuration has no scheme', async () => {
    expect(openLink(await page('desktop'))).toBeNull();
    await storeConfig({ ...demo, appData: demo.appData.map(({ schemes: _, ...item }) => item) });
    expect(openLink(await page('androidChrome'))).toBeNull();
  });

  it('keeps hostile query data encoded inside the href', async () => {
    const html = await page('androidFirefox', '/?inviter=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(html).not.toContain('<script>alert(1)');
    expect(openLink(html)?.href).toBe('pebblenotes-dev://open?inviter=%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E');
  });
});

describe('the /landing button', () => {
  it('opens the app with the signed d token, never its decrypted fields as plain parameters', async () => {
    const link = new URL(inject('campaignLink'));
    const d = link.searchParams.get('d') ?? '';
    const html = await page('androidFirefox', `${link.pathname}${link.search}&channel=forged`);
    expect(openLink(html, 'button-landing')?.href).toBe(`pebblenotes-dev://open?channel=forged&d=${d}`);
    expect(handoffOf(html).handoff.campaign.token).toBe(d);
    const ios = await page('iPhoneSafari', `${link.pathname}${link.search}`);
    expect(openLink(ios, 'button-landing')?.href).toBe(`https://open.pebble-notes.example/open/?d=${d}`);
    const chrome = await page('androidChrome', `${link.pathname}${link.search}`);
    expect(openLink(chrome, 'button-landing')?.href).toMatch(new RegExp(`^intent://open\\?d=${d}#Intent;`));
  });

  it('is the download where no scheme is configured', async () => {
    await storeConfig({ ...demo, appData: demo.appData.map(({ schemes: _, ...item }) => item) });
    const html = await page('iPhoneSafari', '/landing?channel=spring');
    expect(openLink(html, 'button-landing')).toMatchObject({ href: APP_STORE, 'data-kind': 'app-store' });
  });

  it('shows a desktop the QR code of the landing page itself, campaign included', async () => {
    const html = await page('desktop', '/landing?channel=x');
    expect(openLink(html, 'button-landing')).toBeNull();
    expect(html).toMatch(
      /<img class="qr-code" src="data:image\/bmp;base64,[^"]+"[^>]*data-url="https:\/\/lander\.test\/landing\?channel=x"/,
    );
  });
});
