/**
 * Device refinement in Chromium (docs/device.md): after hydration the browser's detection replaces
 * the worker's in the store — screen size, iPadOS behind a Mac agent, Telegram — without a layout
 * shift, from a chunk that the first paint does not load.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { IPAD_MAC_AGENT, UA } from '../fixtures/agents.ts';
import { browserForThisFile, DEVICES, hydrated, marked, screenshot, watch } from './browser.ts';

const baseURL = inject('baseURL');
const browser = browserForThisFile();

const IPAD: BrowserContextOptions = {
  userAgent: IPAD_MAC_AGENT,
  viewport: { width: 820, height: 1180 },
  screen: { width: 820, height: 1180 },
  deviceScaleFactor: 2,
  hasTouch: true,
};
const TELEGRAM_ANDROID: BrowserContextOptions = {
  ...DEVICES.android,
  userAgent: UA.telegramAndroid,
};

async function refined(page: Page): Promise<void> {
  await marked(page, 'deviceRefined', 'true');
}

/** The /test comparison cell for one field: `server` or `browser` side. */
function cell(page: Page, field: string, side: 'server' | 'browser'): Promise<string | null> {
  return page.textContent(`.device-comparison tr[data-field="${field}"] td[data-side="${side}"]`);
}

async function openTest(options: BrowserContextOptions, init?: () => void) {
  const context = await browser.newContext(options);
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const log = watch(page);
  await page.goto(`${baseURL}/test`);
  await hydrated(page);
  await page.waitForSelector('.device-comparison[data-refined="true"]');
  return { context, page, log };
}

describe('device refinement in the browser', () => {
  it.each([
    ['an iPhone', DEVICES.iPhone, 'iOS', 'true'],
    ['an Android phone', DEVICES.android, 'Android', 'true'],
    ['a desktop', DEVICES.desktop, 'PC', 'false'],
  ] as const)('fills the screen size for %s', async (name, options, os, mobile) => {
    const { context, page, log } = await openTest(options);
    const emulated: BrowserContextOptions = options;
    const screen = emulated.screen ?? emulated.viewport;
    expect(await cell(page, 'width', 'server')).toBe('0');
    expect(await cell(page, 'width', 'browser')).toBe(String(screen?.width));
    expect(await cell(page, 'height', 'browser')).toBe(String(screen?.height));
    expect(await cell(page, 'operatingSystem', 'browser')).toBe(os);
    expect(await cell(page, 'mobile', 'browser')).toBe(mobile);
    if (name === 'an iPhone') await screenshot(page, 'device-test-iphone');
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it('keeps WeChat in-app in the browser, as the worker found it', async () => {
    const { context, page } = await openTest(DEVICES.weChatAndroid);
    expect(await cell(page, 'inApp', 'server')).toMatch(/^WeChat \(messaging; .*blocks downloads, schemes\)$/);
    expect(await cell(page, 'inApp', 'browser')).toBe(await cell(page, 'inApp', 'server'));
    expect(await page.getAttribute('html', 'data-in-app')).toBe('WeChat');
    await context.close();
  });

  it('turns an iPad with a Mac agent and touch into iOS after hydration', async () => {
    const context = await browser.newContext(IPAD);
    // A real iPad reports 5 touch points; Chromium's touch emulation reports 1.
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => 5 });
    });
    const page = await context.newPage();
    const log = watch(page);
    const res = await page.goto(`${baseURL}/`);
    expect(await res?.text()).toMatch(/<html[^>]* data-os="PC"/);
    await hydrated(page);
    await refined(page);
    expect(await page.getAttribute('html', 'data-os')).toBe('iOS');
    await page.goto(`${baseURL}/test`);
    await page.waitForSelector('.device-comparison[data-refined="true"]');
    expect(await cell(page, 'operatingSystem', 'server')).toBe('PC');
    expect(await cell(page, 'operatingSystem', 'browser')).toBe('iOS');
    expect(await cell(page, 'device_model', 'browser')).toBe('iPad');
    expect(log.errors).toEqual([]);
    await context.close();
  });

  it('leaves a Mac agent without touch a PC', async () => {
    const { context, page } = await openTest({ userAgent: IPAD_MAC_AGENT, viewport: { width: 1280, height: 800 } });
    expect(await cell(page, 'operatingSystem', 'browser')).toBe('PC');
    await context.close();
  });

  it('makes Telegram in-app once window.TelegramWebview exists', async () => {
    const { context, page } = await openTest(TELEGRAM_ANDROID, () => {
      Object.assign(window, { TelegramWebview: {} });
    });
    expect(await cell(page, 'inApp', 'server')).toBe('—');
    expect(await cell(page, 'inApp', 'browser')).toMatch(/^Telegram \(messaging/);
    await context.close();
  });

  it('does not take the same Android browser for Telegram without Telegram’s objects', async () => {
    const { context, page } = await openTest(TELEGRAM_ANDROID);
    expect(await cell(page, 'inApp', 'browser')).toBe('—');
    await context.close();
  });

  it('loads the detection chunk only after the page, never in the initial HTML', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    const res = await page.goto(`${baseURL}/`);
    expect(await res?.text()).not.toContain('refine-device');
    await hydrated(page);
    await refined(page);
    expect(scripts.some((path) => /^\/assets\/refine-device-[\w-]+\.js$/.test(path))).toBe(true);
    await context.close();
  });

  it.each([
    ['an iPhone', DEVICES.iPhone],
    ['an Android phone', DEVICES.android],
  ] as const)('refines without a layout shift on %s', async (_, options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    await refined(page);
    // Two frames after the store update, so a shift it caused would have been recorded; the
    // buffered entries are the observer's at once (takeRecords), without waiting for its callback.
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const observer = new PerformanceObserver(() => {});
              observer.observe({ type: 'layout-shift', buffered: true });
              const entries = observer.takeRecords() as (PerformanceEntry & { value: number })[];
              observer.disconnect();
              resolve(entries.reduce((total, entry) => total + entry.value, 0));
            }),
          );
        }),
    );
    expect(shift).toBe(0);
    await context.close();
  });
});
