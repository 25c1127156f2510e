/**
 * One tap to the app, installed or not (docs/screens.md): on a campaign link's `/landing`, per
 * device and in both languages, the primary action's words and where its one tap ends — the app
 * link attempted (Universal Link, App Linking, `intent://`), and without the app the store or the
 * download reached without coming back to the page; in-app browsers that block the download say
 * so before the tap and show the guide on it. No internal campaign name shows anywhere. The phone
 * screenshots of docs/screens.md are taken here.
 */
import type { BrowserContextOptions, Page, Route } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { mintLink } from '../../scripts/lib/mint-link.ts';
import { DEV_DECODE_KEY } from '../../worker/settings.ts';
import { UA } from '../fixtures/agents.ts';
import { browserForThisFile, DEVICES, hydrated, marked, screenshot } from './browser.ts';

const baseURL = inject('baseURL');
const browser = browserForThisFile();

const LINK_DOMAIN = 'https://open.pebble-notes.example';
const APK = 'https://dl-dev.lander.example/android/pebble-notes-2.4.0.apk';
const APP_STORE = 'https://apps.apple.com/app/id6740858208?pt=118342&ct=cn-spring-internal';
const EXTERNAL = /^https:\/\/(apps\.apple\.com|dl-dev\.lander\.example|appgallery\.huawei\.com)\//;
/** The operator's own name for the campaign: never on a visitor's page. */
const CHANNEL = 'cn-spring-internal';
const TITLE = 'Spring invite';

const minted = mintLink({
  payload: { channel: CHANNEL, inviter: 'Ann Lee', title: TITLE },
  plain: [],
  base: baseURL,
  key: DEV_DECODE_KEY,
});
if (!minted.ok) throw new Error(minted.reason);
const CAMPAIGN_PATH = minted.url.slice(baseURL.length);
const TOKEN = new URL(minted.url).searchParams.get('d') ?? '';

const LANGUAGES = ['en', 'zh-CN'] as const;
type Language = (typeof LANGUAGES)[number];
const APP = { en: 'Pebble Notes', 'zh-CN': 'Pebble 笔记' } satisfies Record<Language, string>;
const GET = { en: `Get ${APP.en}`, 'zh-CN': `获取 ${APP['zh-CN']}` } satisfies Record<Language, string>;
const OPEN_IN = { en: `Open in ${APP.en}`, 'zh-CN': `在 ${APP['zh-CN']} 中打开` } satisfies Record<Language, string>;
const TO_BROWSER = { en: 'Open in browser to download', 'zh-CN': '在浏览器中打开以下载' } satisfies Record<
  Language,
  string
>;

const PROFILES = {
  iPhone: DEVICES.iPhone,
  android: { ...DEVICES.android, userAgent: UA.androidChrome },
  harmony: { ...DEVICES.android, userAgent: UA.harmonyNext },
  weChatIos: { ...DEVICES.iPhone, userAgent: UA.weChatIos },
  weChatAndroid: DEVICES.weChatAndroid,
  douyin: { ...DEVICES.iPhone, userAgent: UA.douyinIos },
  facebookAndroid: { ...DEVICES.android, userAgent: UA.facebookAndroid },
  desktop: DEVICES.desktop,
} satisfies Record<string, BrowserContextOptions>;

interface Opened {
  page: Page;
  /** The href of every link tapped, as the tap saw it (custom schemes go nowhere in Chromium). */
  taps: string[];
  /** Requests to the link domain and to the stores and download (intercepted, never sent). */
  external: string[];
  close(): Promise<void>;
}

/** Reports the href of each tapped link, after every page listener has filled it in. */
function recordTaps(): void {
  const w = window as unknown as { recordTap(href: string): void };
  window.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (link) w.recordTap(link.getAttribute('href') ?? '');
  });
}

/**
 * The link domain is served by this same worker (docs/campaign-links.md): a request there is asked
 * of it, as a phone without the app would send it. Its redirect to a store or download is recorded
 * and answered as that site (Chromium does not route a fulfilled redirect's next hop).
 */
async function linkDomain(route: Route, external: string[]): Promise<void> {
  const url = new URL(route.request().url());
  external.push(url.href);
  if (url.pathname.startsWith('/i/')) return route.fulfill({ status: 200, contentType: 'text/html', body: '' });
  const response = await route.fetch({ url: `${baseURL}${url.pathname}${url.search}`, maxRedirects: 0 });
  const location = response.headers().location ?? '';
  if (response.status() !== 302 || !EXTERNAL.test(location)) return route.fulfill({ response });
  external.push(location);
  return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>elsewhere</title>' });
}

async function open(profile: BrowserContextOptions, language: Language, path = CAMPAIGN_PATH): Promise<Opened> {
  const context = await browser.newContext({
    ...profile,
    locale: language,
    extraHTTPHeaders: { 'Accept-Language': language },
  });
  const external: string[] = [];
  const taps: string[] = [];
  await context.exposeFunction('recordTap', (href: string) => taps.push(href));
  await context.route(/^https:\/\/open\.pebble-notes\.example\//, (route) => linkDomain(route, external));
  await context.route(EXTERNAL, (route) => {
    external.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>elsewhere</title>' });
  });
  const page = await context.newPage();
  await page.addInitScript(recordTaps);
  await page.goto(`${baseURL}${path}`);
  await hydrated(page);
  await marked(page, 'openApp', 'ready');
  return { page, taps, external, close: () => context.close() };
}

/** The page's visible text holds the operator's display text and never the channel. */
async function showsNoInternalName(page: Page): Promise<void> {
  // biome-ignore lint/performance/useDomNodeTextContent: what a visitor sees, without the data block.
  const text = await page.innerText('body');
  expect(text).not.toContain(CHANNEL);
  expect(text).toContain(TITLE);
}

const primary = (page: Page) => page.locator('.button-landing');

describe.each(LANGUAGES)('/landing in %s', (language) => {
  it('iPhone: "Get"; the tap follows the Universal Link, which without the app ends at the App Store', async () => {
    const { page, external, close } = await open(PROFILES.iPhone, language);
    await screenshot(page, `landing-one-tap-iphone-${language}`);
    await showsNoInternalName(page);
    expect(await primary(page).textContent()).toBe(GET[language]);
    await primary(page).tap();
    await page.waitForURL(`${LINK_DOMAIN}/open/?d=${TOKEN}`);
    expect(await page.title()).toBe('elsewhere');
    expect(external).toEqual([`${LINK_DOMAIN}/open/?d=${TOKEN}`, APP_STORE]);
    await close();
  });

  it('iOS WeChat: the same, the App Store works there', async () => {
    const { page, external, close } = await open(PROFILES.weChatIos, language);
    expect(await primary(page).textContent()).toBe(GET[language]);
    await primary(page).tap();
    await page.waitForURL(`${LINK_DOMAIN}/open/?d=${TOKEN}`);
    expect(await page.title()).toBe('elsewhere');
    expect(external).toEqual([`${LINK_DOMAIN}/open/?d=${TOKEN}`, APP_STORE]);
    await close();
  });

  it('Android Chrome: "Get"; the tap opens the intent, whose own fallback is the APK', async () => {
    const { page, taps, close } = await open(PROFILES.android, language);
    await screenshot(page, `landing-one-tap-android-${language}`);
    await showsNoInternalName(page);
    expect(await primary(page).textContent()).toBe(GET[language]);
    await primary(page).tap();
    await expect.poll(() => taps.length).toBe(1);
    expect(taps[0]).toMatch(
      new RegExp(`^intent://open\\?d=${TOKEN}#Intent;scheme=pebblenotes-dev;package=com\\.pebble\\.notes;`),
    );
    expect(taps[0]).toContain(`S.browser_fallback_url=${encodeURIComponent(APK)}`);
    await close();
  });

  it('HarmonyOS NEXT: "Get"; the tap follows App Linking on the link domain', async () => {
    const { page, external, close } = await open(PROFILES.harmony, language);
    await showsNoInternalName(page);
    expect(await primary(page).textContent()).toBe(GET[language]);
    await primary(page).tap();
    await expect.poll(() => external[0] ?? '').toMatch(new RegExp(`^${LINK_DOMAIN}/i/[\\w-]{22}\\.${TOKEN}$`));
    await close();
  });

  for (const [name, profile] of [
    ['Android WeChat', PROFILES.weChatAndroid],
    ['Douyin', PROFILES.douyin],
  ] as const) {
    it(`${name}: the button says the step that works, and its tap shows the guide; nothing opens`, async () => {
      const { page, external, taps, close } = await open(profile, language);
      if (name === 'Android WeChat') await screenshot(page, `landing-one-tap-wechat-${language}`);
      await showsNoInternalName(page);
      expect(await primary(page).textContent()).toBe(TO_BROWSER[language]);
      await primary(page).tap();
      await page.locator('.guide[role="dialog"]').waitFor();
      expect(page.url()).toBe(`${baseURL}${CAMPAIGN_PATH}`);
      expect(external).toEqual([]);
      expect(taps.length).toBe(1);
      await close();
    });
  }

  it('desktop: no button to tap, the QR code of the page; no internal name', async () => {
    const { page, close } = await open(PROFILES.desktop, language);
    await showsNoInternalName(page);
    expect(await primary(page).count()).toBe(0);
    await page.locator('.landing-qr img').waitFor();
    await close();
  });

  it('says "Open in" once a tap has opened the app here (the page went hidden, and was not left)', async () => {
    const { page, close } = await open(PROFILES.facebookAndroid, language);
    expect(await primary(page).textContent()).toBe(GET[language]);
    await primary(page).tap();
    await page.evaluate(() => {
      const hidden = (value: boolean) => {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      hidden(true);
      hidden(false);
    });
    await page.reload();
    await hydrated(page);
    await expect.poll(() => primary(page).textContent()).toBe(OPEN_IN[language]);
    await close();
  });
});
