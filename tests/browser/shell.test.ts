import { describe, expect, inject, it } from 'vitest';
import { UA } from '../fixtures/agents.ts';
import { browserForThisFile, DEVICES, hydrated, marked, screenshot, watch } from './browser.ts';

const baseURL = inject('baseURL');
const browser = browserForThisFile();

describe('the shell in Chromium', () => {
  it('hydrates / with no console error and no hydration warning', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const log = watch(page);
    await page.goto(`${baseURL}/`);
    await hydrated(page);
    await screenshot(page, 'shell-iphone');
    expect(log.errors).toEqual([]);
    expect(log.messages.filter((m) => /hydrat/i.test(m))).toEqual([]);
    await context.close();
  });

  it('navigates from /landing to / on the client, loading only that screen', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    // Screen chunks other than the first page's: the link preloader may fetch /'s before the click.
    const screens: string[] = [];
    page.on('request', (req) => {
      const path = new URL(req.url()).pathname;
      if (req.resourceType() === 'script' && /^\/assets\/(download|diagnostics)-page-/.test(path)) screens.push(path);
    });
    await page.goto(`${baseURL}/landing`);
    await hydrated(page);
    // The identity chunks load after the load event; let them finish so only the screen's chunk is counted.
    await marked(page, 'identity', 'resolved');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    let documents = 0;
    page.on('request', (req) => {
      if (req.resourceType() === 'document') documents += 1;
    });
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(documents).toBe(0);
    expect(screens).toHaveLength(1);
    expect(screens[0]).toMatch(/^\/assets\/download-page-[\w-]+\.js$/);
    await context.close();
  });

  it('resets the scroll position to the top on navigation', async () => {
    const context = await browser.newContext({ ...DEVICES.desktop, viewport: { width: 800, height: 300 } });
    const page = await context.newPage();
    await page.goto(`${baseURL}/landing`);
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    await page.waitForFunction(() => window.scrollY === 0);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await context.close();
  });

  it('shows the 404 page to a visitor, hydrated, with its message', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const log = watch(page);
    const res = await page.goto(`${baseURL}/nowhere?channel=spring&utm_source=x`);
    expect(res?.status()).toBe(404);
    await hydrated(page);
    await screenshot(page, 'not-found-iphone');
    expect(await page.textContent('h1')).toBe('Page Not Found');
    expect(await page.textContent('.error-description')).toBe('Page not found: /nowhere?channel=spring&utm_source=x');
    expect(log.errors.filter((e) => !e.includes('404'))).toEqual([]);
    await context.close();
  });

  it('shows a bot the metadata page instead of the 404 page', async () => {
    const context = await browser.newContext({
      userAgent: UA.googlebot,
    });
    const page = await context.newPage();
    const res = await page.goto(`${baseURL}/nowhere`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.locator('script').count()).toBe(0);
    await context.close();
  });
});
