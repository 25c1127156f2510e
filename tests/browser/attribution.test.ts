/**
 * Attribution end to end (docs/attribution.md) in real Chromium against the started worker: a tap
 * on the page leaves its carrier where the app looks — the clipboard on iPhone, the Play referrer on
 * Android — and the fake app, handed what it would find, learns the tap's campaign.
 */
import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UA } from '../fixtures/agents.ts';
import { DEMO, demoWith } from '../fixtures/config.ts';
import { fakeApp, PHONES, type Send } from '../fixtures/fake-app.ts';
import { restoreSeed, storeConfig } from '../fixtures/local-kv.ts';
import { DEVICES, hydrated, launch, marked, screenshot } from './browser.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const send: Send = (path, body, headers) =>
  fetch(`${baseURL}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

/** A campaign link minted by `npm run link`, on `path` of the started worker. */
function mintLink(path: string): string {
  const minted = execFileSync(
    process.execPath,
    ['scripts/link.ts', '--channel', 'spring-sale', '--inviter', 'Ann Lee', '--base', baseURL],
    { encoding: 'utf8', env: { ...process.env, DECODE_KEY: '' } },
  ).trim();
  const url = new URL(minted);
  return `${baseURL}${path}${url.search}`;
}

interface Visit {
  page: Page;
  /** Bodies the page posted to /api/a/click. */
  clicks: Record<string, unknown>[];
  /** The hrefs the page's taps followed, as they were when the tap's default action came. */
  left: string[];
  close(): Promise<void>;
}

async function visit(profile: BrowserContextOptions, url: string, init?: () => void): Promise<Visit> {
  const context = await browser.newContext(profile);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  const clicks: Record<string, unknown>[] = [];
  const left: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/a/click')) clicks.push(JSON.parse(request.postData() ?? 'null'));
  });
  // The page stays where a phone would leave for the store or the app: the test records the link the
  // tap followed (after every page listener) and cancels the navigation; page timers stand still.
  await context.exposeFunction('recordFollow', (href: string) => left.push(href));
  await page.addInitScript(() => {
    window.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest('a') : null;
      if (!link || event.defaultPrevented) return;
      (window as unknown as { recordFollow(href: string): void }).recordFollow(link.href);
      event.preventDefault();
    });
  });
  if (init) await page.addInitScript(init);
  await page.clock.install();
  await page.goto(url);
  await hydrated(page);
  await marked(page, 'openApp', 'ready');
  return { page, clicks, left, close: () => context.close() };
}

/** When the worker knows the click (`/api/a/open` answers its time without claiming anything). */
async function clickRecorded(carrier: string): Promise<string | null> {
  const res = await fakeApp(send, PHONES.iPhone15, '127.0.0.1').open('probe-install-id', carrier);
  return ((await res.json()) as { clickedAt?: string | null }).clickedAt ?? null;
}

describe('iPhone: the landing tap copies the carrier link, the app reads it at first launch', () => {
  it("matches the install to the tap with the campaign's data", async () => {
    const link = mintLink('/landing');
    const { page, clicks, close } = await visit(DEVICES.iPhone, link);
    await page.tap('.button-landing');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(new RegExp(`^${baseURL}/i/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]+$`));
    const carrier = copied.slice(`${baseURL}/i/`.length);
    expect(carrier.split('.')[1]).toBe(new URL(link).searchParams.get('d'));
    await expect.poll(() => clicks.length).toBe(1);
    expect(clicks[0]).toMatchObject({ clickId: carrier.split('.')[0], action: 'open', tz: expect.any(String) });
    await expect.poll(() => clickRecorded(carrier)).not.toBeNull();

    const response = await fakeApp(send, PHONES.iPhone15, '127.0.0.1').install(`e2e-ios-${Date.now()}`, {
      clipboard: copied,
    });
    expect(await response.json()).toMatchObject({
      matched: true,
      method: 'clipboard',
      confidence: 100,
      clickId: carrier.split('.')[0],
      data: { channel: 'spring-sale', inviter: 'Ann Lee' },
      clickedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    await close();
  });

  it('the pasted carrier link opens the campaign page in a browser', async () => {
    const link = mintLink('/landing');
    const first = await visit(DEVICES.iPhone, link);
    await first.page.tap('.button-landing');
    const copied = await first.page.evaluate(() => navigator.clipboard.readText());
    await first.close();
    const { page, close } = await visit(DEVICES.iPhone, copied);
    expect(await page.textContent('.campaign-inviter')).toContain('Ann Lee');
    await screenshot(page, 'carrier-page-iphone');
    await close();
  });
});

/** Keeps the page where a phone would leave it: each tap's navigation is cancelled after every page listener. */
const stayOnPage = () =>
  window.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
  });

describe('a tap as soon as the button paints', () => {
  it('once the page script starts, before hydration: carries its carrier, credited, ten visits in ten', async () => {
    const link = mintLink('/landing');
    for (let round = 0; round < 10; round += 1) {
      const context = await browser.newContext(DEVICES.iPhone);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
      const page = await context.newPage();
      await page.addInitScript(stayOnPage);
      const clicks: Record<string, unknown>[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/api/a/click')) clicks.push(JSON.parse(request.postData() ?? 'null'));
      });
      await page.goto(link, { waitUntil: 'commit' });
      // As soon as the page's script has started (before hydration, often before the worker's click
      // ids have arrived), Playwright taps the button the moment it is visible and stable.
      await page.waitForSelector('html[data-taps="ready"]', { state: 'attached' });
      await page.tap('.button-landing');
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied, `round ${round}`).toMatch(new RegExp(`^${baseURL}/i/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]+$`));
      const carrier = copied.slice(`${baseURL}/i/`.length);
      await expect.poll(() => clicks.length).toBe(1);
      expect(clicks[0]).toMatchObject({ clickId: carrier.split('.')[0], action: 'open' });
      await expect.poll(() => clickRecorded(carrier)).not.toBeNull();
      const response = await fakeApp(send, PHONES.iPhone15, '127.0.0.1').install(`e2e-paint-${round}-${Date.now()}`, {
        clipboard: copied,
      });
      expect(await response.json()).toMatchObject({
        matched: true,
        method: 'clipboard',
        clickId: carrier.split('.')[0],
      });
      await context.close();
    }
  });

  it('uses a click id the worker issued once the page has them', async () => {
    const issued: string[] = [];
    const context = await browser.newContext(DEVICES.iPhone);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    const page = await context.newPage();
    await page.addInitScript(stayOnPage);
    page.on('response', async (response) => {
      if (response.url().endsWith('/api/a/click-ids'))
        issued.push(...((await response.json()) as { clickIds: string[] }).clickIds);
    });
    await page.goto(mintLink('/landing'));
    await hydrated(page);
    await expect.poll(() => issued.length).toBeGreaterThan(0);
    await page.tap('.button-landing');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(issued).toContain(copied.slice(`${baseURL}/i/`.length).split('.')[0]);
    await context.close();
  });
});

describe("Android: the Play link carries the tap's carrier as its install referrer", () => {
  beforeAll(() => {
    // No APK: Android visitors get the Play store link.
    storeConfig(persistTo, demoWith({ appData: DEMO.appData.map(({ download_url: _, ...item }) => item) }));
  }, 60_000);
  afterAll(() => {
    restoreSeed(persistTo);
  }, 60_000);

  it('matches the install to the tap through the referrer', async () => {
    const link = mintLink('/');
    const profile = { ...DEVICES.android, userAgent: UA.androidChrome };
    const { page, clicks, left, close } = await visit(profile, link);
    await page.tap('.button-primary');
    await expect.poll(() => left.length).toBe(1);
    const play = new URL(left[0] ?? '');
    expect(`${play.origin}${play.pathname}`).toBe('https://play.google.com/store/apps/details');
    const referrer = play.searchParams.get('referrer') ?? '';
    expect(referrer).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    await expect.poll(() => clicks.length).toBe(1);
    expect(clicks[0]).toMatchObject({ clickId: referrer.split('.')[0], action: 'store' });

    const response = await fakeApp(send, PHONES.galaxyS23, '127.0.0.1').install(`e2e-android-${Date.now()}`, {
      playReferrer: referrer,
    });
    expect(await response.json()).toMatchObject({
      matched: true,
      method: 'referrer',
      clickId: referrer.split('.')[0],
      data: { channel: 'spring-sale', inviter: 'Ann Lee' },
    });
    await close();
  });

  it('asks the browser for its high-entropy hints once: the tap and the device share the answer', async () => {
    const profile = { ...DEVICES.android, userAgent: UA.androidChrome };
    const { page, clicks, close } = await visit(profile, mintLink('/'), () => {
      const counted = window as unknown as { hintsAsked: number };
      counted.hintsAsked = 0;
      const data = {
        mobile: true,
        platform: 'Android',
        brands: [],
        getHighEntropyValues: async () => {
          counted.hintsAsked += 1;
          return { model: 'Pixel 8', platformVersion: '14.0.0' };
        },
      };
      Object.defineProperty(Navigator.prototype, 'userAgentData', { configurable: true, get: () => data });
    });
    await marked(page, 'deviceRefined', 'true');
    await page.tap('.button-primary');
    await expect.poll(() => clicks.length).toBe(1);
    expect(clicks[0]).toMatchObject({ hints: { model: 'Pixel 8', platformVersion: '14.0.0' } });
    expect(await page.evaluate(() => (window as unknown as { hintsAsked: number }).hintsAsked)).toBe(1);
    await close();
  });
});

describe("a short link's page", () => {
  it('tells the click beacon its slug, so the tap counts under the link', async () => {
    const created = await fetch(`${baseURL}/api/links`, {
      method: 'POST',
      body: JSON.stringify({ channel: 'short-tap', inviter: 'Bo' }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer lander-dev-admin' },
    });
    expect(created.status).toBe(201);
    const { shortUrl } = (await created.json()) as { shortUrl: string };
    const slug = new URL(shortUrl).pathname.slice('/s/'.length);
    const { page, clicks, close } = await visit(DEVICES.iPhone, `${baseURL}/s/${slug}`);
    await page.tap('.button-landing');
    await expect.poll(() => clicks.length).toBe(1);
    expect(clicks[0]).toMatchObject({ link: slug, d: expect.any(String) });
    await close();
  });
});
