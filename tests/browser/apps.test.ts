/**
 * Two apps side by side on the started worker (docs/routes.md#apps; `npm start`'s demo seeds the
 * default app and `sketch`): a visitor of `/@sketch/` stays in sketch while tapping around, and the
 * console's app switcher opens the other app's console, on a phone's width, in both languages.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserForThisFile, DEVICES, hydrated, openEnhanced, screenshot, watch } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const SKETCH_TAGLINE = 'Draw it before it fades';
const browser = browserForThisFile();
const contexts: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function phonePage(locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES.iPhone, locale });
  contexts.push(context);
  return context.newPage();
}

describe('a visitor of /@sketch/', () => {
  it("stays in sketch: its landing page, the link home and the page it opens are sketch's", async () => {
    const page = await phonePage();
    const log = watch(page);
    await openEnhanced(page, `${baseURL}/@sketch/landing`);
    await expect.poll(() => page.locator('.app-tagline').first().textContent()).toBe(SKETCH_TAGLINE);
    // The link home is the app's home: the router's basename, `/@sketch`.
    const home = page.locator('nav.links a').first();
    expect(await home.getAttribute('href')).toBe('/@sketch');
    await home.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/@sketch');
    await expect.poll(() => page.locator('.app-tagline').first().textContent()).toBe(SKETCH_TAGLINE);
    // The browser's router took the same page the worker rendered: no hydration error.
    expect(log.errors).toEqual([]);
  });

  it("shows the default app's own page at /", async () => {
    const page = await phonePage();
    await openEnhanced(page, `${baseURL}/`);
    await expect.poll(() => page.locator('.app-tagline').first().textContent()).not.toBe(SKETCH_TAGLINE);
  });
});

describe("the console's app switcher", () => {
  it.each([
    ['en-US', 'App', 'console-app-switcher-en'],
    ['zh-CN', '应用', 'console-app-switcher-zh-CN'],
  ])('in %s lists both apps and opens the chosen one’s console, at a phone’s width', async (locale, label, shot) => {
    const page = await phonePage(locale);
    await page.goto(`${baseURL}/admin`);
    await hydrated(page);
    await page.locator('input[name="token"]').fill(TOKEN);
    await page.locator('form button[type="submit"]').first().click();
    const switcher = page.locator('.app-switcher select');
    await switcher.waitFor();
    expect(await page.locator('.app-switcher').textContent()).toContain(label);
    expect(await switcher.locator('option').allTextContents()).toEqual(['Pebble Notes', 'Pebble Sketch']);
    // Nothing of the header sticks out sideways on the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, shot);
    await switcher.selectOption('sketch');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/@sketch/admin');
    // The token is kept for the tab: sketch's console signs in by itself, its calls under /@sketch/api.
    await expect.poll(() => page.locator('.app-switcher select').inputValue()).toBe('sketch');
  });
});
