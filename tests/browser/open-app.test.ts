/**
 * Opening the app (docs/screens.md) in real Chromium: the href each device's tap follows,
 * and the 2500 ms fallback to the download — only when the page stayed visible. Custom-scheme
 * navigations fail silently in headless Chromium, so the tap's href is read from the click; https
 * navigations (Universal Links, App Store, APK) are intercepted and recorded.
 */
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UA } from '../fixtures/agents.ts';
import { demoWith } from '../fixtures/config.ts';
import { restoreSeed, storeConfig } from '../fixtures/local-kv.ts';
import { DEVICES, hydrated, launch, marked, navigations, recordNavigations } from './browser.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const APK = 'https://dl-dev.lander.example/android/pebble-notes-2.4.0.apk';
// The demo configuration's provider token and the page's channel (docs/attribution.md).
const APP_STORE = 'https://apps.apple.com/app/id6740858208?pt=118342&ct=spring';
const EXTERNAL = /^https:\/\/(apps\.apple\.com|dl-dev\.lander\.example|open\.pebble-notes\.example)\//;

const PROFILES = {
  iPhoneSafari: DEVICES.iPhone,
  androidChrome: { ...DEVICES.android, userAgent: UA.androidChrome },
  facebookAndroid: { ...DEVICES.android, userAgent: UA.facebookAndroid },
  baiduAppAndroid: { ...DEVICES.android, userAgent: UA.baiduAppAndroid },
  weChatAndroid: { ...DEVICES.weChatAndroid, locale: 'zh-CN' },
} satisfies Record<string, BrowserContextOptions>;

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

interface Opened {
  page: Page;
  /** The href of every link tapped, as the tap saw it. */
  taps: string[];
  /** https navigations away from the page (Universal Links, App Store, APK). */
  external: string[];
  close(): Promise<void>;
}

/** Reports the href of each tapped link before any page script sees the tap. */
function recordTaps(): void {
  const w = window as unknown as { recordTap(href: string): void };
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (link) w.recordTap(link.getAttribute('href') ?? '');
  });
}

async function open(profile: BrowserContextOptions, path: string, permissions: string[] = []): Promise<Opened> {
  const context = await browser.newContext(profile);
  if (permissions.length > 0) await context.grantPermissions(permissions, { origin: baseURL });
  const page = await context.newPage();
  const external: string[] = [];
  const taps: string[] = [];
  await context.exposeFunction('recordTap', (href: string) => taps.push(href));
  await context.route(EXTERNAL, (route) => {
    external.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>elsewhere</title>' });
  });
  await page.addInitScript(recordTaps);
  await recordNavigations(page);
  await page.clock.install();
  await page.goto(`${baseURL}${path}`);
  await hydrated(page);
  await marked(page, 'openApp', 'ready');
  // Time stands still from here: only runFor moves it.
  await page.clock.pauseAt(Date.now() + 1000);
  return {
    page,
    taps,
    external,
    close: () => context.close(),
  };
}

/** What the page says when the app opened: hidden, as a phone reports it when another app comes up. */
async function hidePage(page: Page): Promise<void> {
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** Runs the page's clock: the timers due within `ms` fire. */
async function advance(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms);
}

/**
 * The https navigations away (Universal Links, App Store, APK) the page has started: recorded by
 * the page itself the moment it starts one, so an empty list is final, not early.
 */
async function leaving(page: Page): Promise<string[]> {
  return (await navigations(page)).map((n) => n.slice(n.indexOf(' ') + 1)).filter((url) => EXTERNAL.test(url));
}

function mintLink(): string {
  return execFileSync(
    process.execPath,
    ['scripts/link.ts', '--channel', 'spring-sale', '--inviter', 'Ann Lee', '--base', baseURL],
    { encoding: 'utf8', env: { ...process.env, DECODE_KEY: '' } },
  ).trim();
}

describe('iOS Safari', () => {
  it('with a Universal Link domain: the tap goes to that domain with the query data', async () => {
    const { page, taps, external, close } = await open(PROFILES.iPhoneSafari, '/?channel=spring&inviter=Ann');
    await page.tap('.button-open');
    const expected = 'https://open.pebble-notes.example/open/?channel=spring&inviter=Ann';
    await expect.poll(() => taps).toEqual([expected]);
    await expect.poll(() => external).toEqual([expected]);
    await close();
  });

  it('without the app, Safari opens the Universal Link: Lander on that domain sends it on to the App Store', async () => {
    const context = await browser.newContext(PROFILES.iPhoneSafari);
    // The link as iOS hands it to Safari when no app claims it (this server stands for that domain);
    // tests/browser/one-tap.test.ts follows it from the tap.
    const answer = await context.request.get(`${baseURL}/open/?channel=spring&inviter=Ann`, { maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    expect(answer.headers().location).toBe(APP_STORE);
    await context.close();
  });

  describe('without a Universal Link domain', () => {
    beforeAll(() => {
      storeConfig(persistTo, demoWith({ links: {} }));
    }, 60_000);
    afterAll(() => {
      restoreSeed(persistTo);
    }, 60_000);

    it('the tap follows the dev scheme; 2500 ms later, still visible, the App Store opens', async () => {
      const { page, taps, external, close } = await open(PROFILES.iPhoneSafari, '/?channel=spring');
      await page.tap('.button-open');
      expect(taps).toEqual(['pebblenotes-dev://open?channel=spring']);
      await advance(page, 2499);
      expect(await leaving(page)).toEqual([]);
      expect(external).toEqual([]);
      await advance(page, 1);
      await expect.poll(() => external).toEqual([APP_STORE]);
      await close();
    });
  });
});

describe('Android Chrome', () => {
  it('the tap follows the intent URL; no timer, Chrome falls back by itself', async () => {
    const { page, taps, external, close } = await open(PROFILES.androidChrome, '/?channel=spring');
    await page.tap('.button-open');
    expect(taps).toEqual([
      `intent://open?channel=spring#Intent;scheme=pebblenotes-dev;package=com.pebble.notes;S.browser_fallback_url=${encodeURIComponent(APK)};end`,
    ]);
    await advance(page, 5000);
    expect(await leaving(page)).toEqual([]);
    expect(external).toEqual([]);
    await close();
  });
});

describe('an Android in-app webview (Facebook)', () => {
  it('the tap follows the scheme; the APK starts 2500 ms later, not before', async () => {
    const { page, taps, external, close } = await open(PROFILES.facebookAndroid, '/?channel=spring');
    await page.tap('.button-open');
    expect(taps).toEqual(['pebblenotes-dev://open?channel=spring']);
    await advance(page, 2499);
    expect(await leaving(page)).toEqual([]);
    expect(external).toEqual([]);
    await advance(page, 1);
    await expect.poll(() => external).toEqual([APK]);
    await close();
  });

  it('no download when the page went hidden (the app opened)', async () => {
    const { page, external, close } = await open(PROFILES.facebookAndroid, '/');
    await page.tap('.button-open');
    await advance(page, 1000);
    await hidePage(page);
    await advance(page, 5000);
    expect(await leaving(page)).toEqual([]);
    expect(external).toEqual([]);
    await close();
  });

  it('no download after pagehide', async () => {
    const { page, external, close } = await open(PROFILES.facebookAndroid, '/');
    await page.tap('.button-open');
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pagehide')));
    await advance(page, 5000);
    expect(await leaving(page)).toEqual([]);
    expect(external).toEqual([]);
    await close();
  });

  it('a second tap restarts the timer: one download, 2500 ms after the last tap', async () => {
    const { page, external, close } = await open(PROFILES.facebookAndroid, '/');
    await page.tap('.button-open');
    await advance(page, 2000);
    // A second trusted tap on the same unhandled scheme sometimes stalls in headless Chromium; a
    // dispatched click reaches the same listener. Its own navigation to the scheme is cancelled after
    // the page's listener has run (a window listener runs last): on the test's fake clock the 2500 ms
    // pass at once, and a scheme navigation still pending then would swallow the download's.
    await page.evaluate(() => window.addEventListener('click', (event) => event.preventDefault(), { once: true }));
    await page.locator('.button-open').dispatchEvent('click');
    await advance(page, 2000);
    expect(await leaving(page)).toEqual([]);
    expect(external).toEqual([]);
    await advance(page, 500);
    await expect.poll(() => external).toEqual([APK]);
    await close();
  });
});

describe('the Baidu app', () => {
  it('the tap follows bdashighdown; the APK after 2500 ms', async () => {
    const { page, taps, external, close } = await open(PROFILES.baiduAppAndroid, '/?channel=spring');
    await page.tap('.button-open');
    expect(taps).toEqual(['bdashighdown://open?channel=spring']);
    await advance(page, 2500);
    await expect.poll(() => external).toEqual([APK]);
    await close();
  });
});

describe('WeChat on Android', () => {
  it('the tap shows the open-in-browser guide; nothing opens, no timer', async () => {
    const { page, external, close } = await open(PROFILES.weChatAndroid, '/?channel=spring');
    const before = page.url();
    await page.tap('.button-open');
    // The guide is a lazy chunk under Suspense, whose reveal waits on timers: let the clock run.
    await advance(page, 5000);
    const guide = page.locator('.guide[role="dialog"]');
    await guide.waitFor();
    expect(await guide.locator('h2').textContent()).toBe('请在浏览器中打开本页以打开 App');
    expect(await leaving(page)).toEqual([]);
    expect(external).toEqual([]);
    expect(page.url()).toBe(before);
    await close();
  });
});

describe('/landing', () => {
  it('shows the campaign, copies the carrier link on the tap, opens the app with the signed token, then the APK', async () => {
    const link = new URL(mintLink());
    const { page, taps, external, close } = await open(PROFILES.facebookAndroid, `${link.pathname}${link.search}`, [
      'clipboard-read',
      'clipboard-write',
    ]);
    expect(await page.textContent('.campaign-inviter')).toContain('Ann Lee');
    await page.tap('.button-landing');
    expect(taps).toEqual([`pebblenotes-dev://open?d=${link.searchParams.get('d')}`]);
    // docs/attribution.md: `<origin>/i/<click id>.<token>`, for the app's first launch.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`^${baseURL}/i/[\\w-]{22}\\.${link.searchParams.get('d')}$`),
    );
    await advance(page, 2500);
    await expect.poll(() => external).toEqual([APK]);
    await close();
  });

  it('copies a carrier link naming the click alone when the link has no token', async () => {
    const { page, close } = await open(PROFILES.facebookAndroid, '/landing?channel=mail&inviter=Bo', [
      'clipboard-read',
      'clipboard-write',
    ]);
    await page.tap('.button-landing');
    // Plain parameters vouch for nothing, so the app is not handed them (docs/attribution.md).
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`^${baseURL}/i/[\\w-]{22}$`));
    await close();
  });

  it('sends the campaign token itself on the trace call, never its fields as plain parameters', async () => {
    const link = new URL(mintLink());
    const context = await browser.newContext(PROFILES.iPhoneSafari);
    const page = await context.newPage();
    const trace = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/trace');
    await page.goto(`${baseURL}${link.pathname}${link.search}`);
    const query = new URL((await trace).url()).searchParams;
    expect(query.get('d')).toBe(link.searchParams.get('d'));
    expect(query.has('channel')).toBe(false);
    expect(query.has('inviter')).toBe(false);
    await context.close();
  });
});
