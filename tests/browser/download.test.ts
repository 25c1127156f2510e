import jsQR from 'jsqr';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, inject, it } from 'vitest';
import { IPAD_MAC_AGENT, UA } from '../fixtures/agents.ts';
import { browserForThisFile, DEVICES, hydrated, marked, screenshot, watch } from './browser.ts';

const baseURL = inject('baseURL');
const browser = browserForThisFile();

const PROFILES = {
  iPhone: DEVICES.iPhone,
  android: DEVICES.android,
  harmony: { ...DEVICES.android, userAgent: UA.harmonyNext, locale: 'zh-CN' },
  desktop: DEVICES.desktop,
  // iPadOS "requests the desktop site": a Mac agent, but a touch screen.
  iPadMacAgent: {
    viewport: { width: 820, height: 1180 },
    userAgent: IPAD_MAC_AGENT,
    hasTouch: true,
    deviceScaleFactor: 2,
  },
  weChatAndroid: { ...DEVICES.weChatAndroid, locale: 'zh-CN' },
} satisfies Record<string, BrowserContextOptions>;

/**
 * Before any script runs, remembers the server-rendered download buttons (the DOM nodes
 * themselves) and sums layout shifts, so a test can tell whether hydration kept them.
 */
function recordServerButtons(): void {
  const w = window as unknown as { serverButtons: Element[]; layoutShift: number };
  w.layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (!entry.hadRecentInput) w.layoutShift += entry.value;
    }
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('readystatechange', () => {
    if (document.readyState === 'interactive') w.serverButtons = [...document.querySelectorAll('.download a.button')];
  });
}

interface Opened {
  page: Page;
  errors: string[];
  serverHtml: string;
  close(): Promise<void>;
}

async function open(profile: BrowserContextOptions, path = '/'): Promise<Opened> {
  const context = await browser.newContext(profile);
  const page = await context.newPage();
  await page.addInitScript(recordServerButtons);
  const log = watch(page);
  const res = await page.goto(`${baseURL}${path}`);
  const serverHtml = (await res?.text()) ?? '';
  await hydrated(page);
  return { page, errors: log.errors, serverHtml, close: () => context.close() };
}

/** The server's buttons as the server sent them (attributes in the server's order), "Open the app" included. */
function serverButtons(html: string): string[] {
  return [...html.matchAll(/<a class="button button-(?:primary|store|open)"[^>]*>.*?<\/a>/g)].map((m) => m[0]);
}

/** After hydration and the domain probe: are the very same button nodes, unchanged, on the page? */
async function buttonsKept(page: Page): Promise<{ same: boolean; html: string[]; shift: number }> {
  await marked(page, 'downloadProbed', 'true');
  return page.evaluate(() => {
    const w = window as unknown as { serverButtons: Element[]; layoutShift: number };
    const now = [...document.querySelectorAll('.download a.button')];
    return {
      same: now.length === w.serverButtons.length && now.every((node, i) => node === w.serverButtons[i]),
      html: now.map((node) => node.outerHTML),
      shift: w.layoutShift,
    };
  });
}

describe('the download button per device, kept through hydration', () => {
  const cases: [keyof typeof PROFILES, string, string[]][] = [
    ['iPhone', 'download-iphone-safari', ['https://apps.apple.com/app/id6740858208?pt=118342']],
    ['android', 'download-android-chrome', ['https://dl-dev.lander.example/android/pebble-notes-2.4.0.apk']],
    ['harmony', 'download-harmonyos', ['https://appgallery.huawei.com/app/detail?id=C110123456']],
    [
      'desktop',
      'download-desktop',
      [
        'https://apps.apple.com/app/id6740858208?pt=118342',
        'https://dl-dev.lander.example/android/pebble-notes-2.4.0.apk',
      ],
    ],
    [
      'iPadMacAgent',
      'download-ipad-desktop-agent',
      [
        'https://apps.apple.com/app/id6740858208?pt=118342',
        'https://dl-dev.lander.example/android/pebble-notes-2.4.0.apk',
      ],
    ],
    ['weChatAndroid', 'download-wechat-android', ['https://dl-dev.lander.example/android/pebble-notes-2.4.0.apk']],
  ];

  for (const [profile, name, hrefs] of cases) {
    it(`${profile}: the server's button${hrefs.length > 1 ? 's stay' : ' stays'}, same node, no layout shift`, async () => {
      const { page, errors, serverHtml, close } = await open(PROFILES[profile]);
      const server = serverButtons(serverHtml);
      const downloads = server.filter((b) => !b.includes('button-open'));
      expect(downloads.map((b) => /href="([^"]*)"/.exec(b)?.[1])).toEqual(hrefs);
      const kept = await buttonsKept(page);
      expect(kept.same).toBe(true);
      expect(kept.html).toEqual(server);
      expect(kept.shift).toBe(0);
      expect(errors).toEqual([]);
      if (profile !== 'weChatAndroid') await screenshot(page, name);
      await close();
    });
  }

  it('iPad with a Mac agent: the desktop layout, QR code hidden on the touch screen, store buttons shown', async () => {
    const { page, close } = await open(PROFILES.iPadMacAgent);
    expect(await page.evaluate(() => matchMedia('(pointer: coarse)').matches)).toBe(true);
    expect(await page.getAttribute('.download', 'data-layout')).toBe('PC');
    expect(await page.isVisible('.qr-code')).toBe(false);
    expect(await page.locator('.button-store').count()).toBe(2);
    expect(await page.isVisible('.button-store >> nth=0')).toBe(true);
    await close();
  });
});

describe('the desktop QR code', () => {
  it('is visible and decodes to the page URL, query included', async () => {
    const path = '/?channel=qr-test&inviter=ann';
    const { page, errors, close } = await open(PROFILES.desktop, path);
    expect(await page.isVisible('img.qr-code')).toBe(true);
    // Hydrated from a hand-off that leaves the image out: the page's own image stays in place.
    expect(await page.getAttribute('img.qr-code', 'src')).toMatch(/^data:image\/bmp;base64,/);
    expect(errors).toEqual([]);
    const png = PNG.sync.read(await page.locator('.qr-code').screenshot());
    const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(code?.data).toBe(`${baseURL}${path}`);
    await close();
  });

  it('is not in the browser bundle: the page loads no QR encoder', async () => {
    const context = await browser.newContext(PROFILES.desktop);
    const page = await context.newPage();
    const bodies: Promise<string>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'script') bodies.push(res.text());
    });
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    // Deferred chunks (identity, FingerprintJS) load after the load event: count them too, and read
    // every body before the page closes.
    await marked(page, 'identity', 'resolved');
    const scripts = await Promise.all(bodies);
    expect(scripts.length).toBeGreaterThan(0);
    // The QR encoder's tables of error-correction codewords would be in any bundle that encodes QR codes.
    expect(scripts.some((s) => /minCorrectionLevel|maxCorrectionLevel|ECC_CODEWORDS/.test(s))).toBe(false);
    await context.close();
  });
});

describe('the in-app guide', () => {
  it('WeChat on Android: tapping the button shows the guide in Chinese instead of downloading', async () => {
    const { page, errors, close } = await open(PROFILES.weChatAndroid);
    const before = page.url();
    await page.tap('.button-primary');
    const guide = page.locator('.guide[role="dialog"]');
    await guide.waitFor();
    expect(await guide.locator('h2').textContent()).toBe('请在浏览器中打开本页以下载');
    expect(await guide.locator('li').allTextContents()).toEqual(['点击右上角的 ···', '选择「在浏览器中打开」']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('我知道了');
    expect(page.url()).toBe(before);
    await screenshot(page, 'download-wechat-android-guide');
    expect(errors).toEqual([]);
    await close();
  });

  it('is dismissed by its button, by Escape and by a tap outside the text', async () => {
    const { page, close } = await open(PROFILES.weChatAndroid);
    for (const dismiss of [
      () => page.tap('.guide-card .button'),
      () => page.keyboard.press('Escape'),
      () => page.mouse.click(30, 700),
    ]) {
      await page.tap('.button-primary');
      await page.locator('.guide').waitFor();
      await dismiss();
      await page.locator('.guide').waitFor({ state: 'detached' });
    }
    await close();
  });

  it('is not shown in a browser that allows downloads: the tap follows the link', async () => {
    const { page, close } = await open(PROFILES.android);
    const navigation = page.waitForRequest((req) => req.url().includes('pebble-notes-2.4.0.apk'));
    await page.tap('.button-primary');
    await navigation;
    expect(await page.locator('.guide').count()).toBe(0);
    await close();
  });
});

describe('languages', () => {
  it('zh-CN: Chinese text and <html lang="zh-CN">', async () => {
    const { page, close } = await open({ ...PROFILES.iPhone, locale: 'zh-CN' });
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('h1')).toBe('Pebble 笔记');
    expect(await page.textContent('.button-primary')).toBe('前往 App Store 下载');
    await screenshot(page, 'download-zh-CN');
    await close();
  });

  it('en: English text and <html lang="en">', async () => {
    const { page, close } = await open({ ...PROFILES.iPhone, locale: 'en-US' });
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.textContent('h1')).toBe('Pebble Notes');
    expect(await page.textContent('.button-primary')).toBe('Download on the App Store');
    await screenshot(page, 'download-en');
    await close();
  });
});
