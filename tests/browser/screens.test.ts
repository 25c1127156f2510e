/**
 * What visitors see on the screens other than the download page (docs/screens.md), on a phone and a
 * desktop in both languages: the layout checks behind the screenshots of docs/screens.md, which these tests take.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { mintLink } from '../../scripts/lib/mint-link.ts';
import { DEV_DECODE_KEY } from '../../worker/settings.ts';
import { DEMO } from '../fixtures/config.ts';
import { browserForThisFile, DEVICES, hydrated, marked, screenshot } from './browser.ts';

const baseURL = inject('baseURL');
const browser = browserForThisFile();

const SIZES = { iphone: DEVICES.iPhone, desktop: DEVICES.desktop } satisfies Record<string, BrowserContextOptions>;
const LANGUAGES = ['en', 'zh-CN'] as const;
/** The configured app's name per language, as the seeded configuration has it. */
const APP_NAME = DEMO.appData[1]?.name ?? { en: '', 'zh-CN': '' };

const minted = mintLink({
  payload: { channel: 'spring', inviter: 'Ann Lee' },
  plain: [],
  base: baseURL,
  key: DEV_DECODE_KEY,
});
if (!minted.ok) throw new Error(minted.reason);
const CAMPAIGN_PATH = minted.url.slice(baseURL.length);

async function openScreen(size: keyof typeof SIZES, language: string, path: string) {
  const context = await browser.newContext({ ...SIZES[size], extraHTTPHeaders: { 'Accept-Language': language } });
  const page = await context.newPage();
  await page.goto(`${baseURL}${path}`);
  await hydrated(page);
  return { page, close: () => context.close() };
}

/** How far the document reaches past the viewport's right edge (0: no sideways scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** The gaps left and right of `selector`'s box within the viewport. */
const sideGaps = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const box = el.getBoundingClientRect();
    return { left: Math.round(box.left), right: Math.round(document.documentElement.clientWidth - box.right) };
  });

describe('/landing, the download page’s sibling', () => {
  for (const [size, language] of Object.keys(SIZES).flatMap((s) => LANGUAGES.map((l) => [s, l] as const))) {
    it(`${size}, ${language}: the configured app, who invited, one centred column`, async () => {
      const { page, close } = await openScreen(size as keyof typeof SIZES, language, CAMPAIGN_PATH);
      await screenshot(page, `landing-${size}-${language}`);
      expect(await page.textContent('.landing h1')).toBe(APP_NAME[language]);
      expect(await page.getAttribute('.landing .app-logo', 'src')).toBe(DEMO.appData[1]?.logo_url);
      expect(await page.textContent('.campaign-inviter strong')).toBe('Ann Lee');
      // The channel is the operator's own name for the campaign: never shown (docs/screens.md).
      expect(await page.textContent('.landing')).not.toContain('spring');
      const gaps = await sideGaps(page, 'main.page');
      expect(Math.abs(gaps.left - gaps.right)).toBeLessThanOrEqual(1);
      // The identity, the campaign card and the button (or the desktop's QR card) share one column.
      const widths = await page.$$eval('.landing > .campaign, .landing > .button, .landing > .landing-qr', (els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().width)),
      );
      expect(widths.length).toBe(2);
      expect(new Set(widths).size).toBe(1);
      expect(await overflow(page)).toBe(0);
      await close();
    });
  }

  it('without a campaign: the app and its button, no empty campaign card', async () => {
    const { page, close } = await openScreen('iphone', 'en', '/landing');
    expect(await page.textContent('.landing h1')).toBe(APP_NAME.en);
    expect(await page.locator('.campaign').count()).toBe(0);
    expect(await page.locator('.landing > .button').count()).toBe(1);
    await close();
  });
});

describe('the download page', () => {
  it('has no link to the campaign page', async () => {
    const { page, close } = await openScreen('iphone', 'en', '/');
    expect(await page.locator('a[href^="/landing"]').count()).toBe(0);
    expect(await page.getByText('Campaign page').count()).toBe(0);
    await close();
  });
});

describe('the 404 page', () => {
  for (const [size, language] of Object.keys(SIZES).flatMap((s) => LANGUAGES.map((l) => [s, l] as const))) {
    it(`${size}, ${language}: centred like the other screens`, async () => {
      const { page, close } = await openScreen(size as keyof typeof SIZES, language, '/nowhere');
      await screenshot(page, `not-found-${size}-${language}`);
      const gaps = await sideGaps(page, '.error-page');
      expect(Math.abs(gaps.left - gaps.right)).toBeLessThanOrEqual(1);
      // Its button reads as well as the download page's: white on the darker green (WCAG AA).
      expect(await page.$eval('.error-page .button', (el) => getComputedStyle(el).backgroundColor)).toBe(
        'rgb(6, 122, 66)',
      );
      expect(await overflow(page)).toBe(0);
      await close();
    });
  }
});

describe('/test', () => {
  for (const [size, language] of Object.keys(SIZES).flatMap((s) => LANGUAGES.map((l) => [s, l] as const))) {
    it(`${size}, ${language}: every table header on one line and inside its cell, headings alike`, async () => {
      const { page, close } = await openScreen(size as keyof typeof SIZES, language, '/test');
      // Settled, as an operator reads it: the browser's column and both ids filled in.
      await page.waitForSelector('.device-comparison[data-refined="true"]');
      await marked(page, 'identity', 'resolved');
      await screenshot(page, `test-${size}-${language}`);
      const headers = await page.$$eval('.diagnostics th', (cells) =>
        cells.map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
          return { text: cell.textContent, lines, overflows: cell.scrollWidth > cell.clientWidth };
        }),
      );
      expect(headers.length).toBeGreaterThan(20);
      expect(headers.filter((h) => h.lines !== 1 || h.overflows)).toEqual([]);
      // "Configuration" is a section heading like "Device".
      const headings = await page.$$eval('.diagnostics h2', (els) =>
        els.map((el) => {
          const css = getComputedStyle(el);
          return `${css.fontSize} ${css.fontWeight} ${css.marginTop}`;
        }),
      );
      expect(headings).toHaveLength(2);
      expect(headings[1]).toBe(headings[0]);
      expect(await page.textContent('.config-info h2')).toBe(language === 'en' ? 'Configuration' : '配置');
      expect(await overflow(page)).toBe(0);
      await close();
    });
  }

  it('says the fingerprint is pending until fingerprintjs has answered, then shows it', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/fp\.esm-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${baseURL}/test`);
    await hydrated(page);
    const row = page.locator('tr[data-identity="fingerprint"]');
    expect(await row.getAttribute('data-source')).toBe('pending');
    expect(await row.locator('td').textContent()).toBe('Resolving…');
    release();
    await page.waitForSelector('tr[data-identity="fingerprint"]:not([data-source="pending"])');
    expect(await row.locator('.identity-id').textContent()).toMatch(/\S/);
    await context.close();
  });
});
