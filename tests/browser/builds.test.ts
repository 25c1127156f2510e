import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import {
  BUILD_MANIFEST,
  browserForThisFile,
  DEVICES,
  fetches,
  hydrated,
  marked,
  navigations,
  openEnhanced,
  recordFetches,
  recordNavigations,
  watch,
} from './browser.ts';

const baseURL = inject('baseURL');
const LATEST = /\/assets\/builds\/latest\.json(\?|$)/;
const DOWNLOAD_CHUNK = /\/assets\/download-page-[\w-]+\.js$/;
const browser = browserForThisFile();

/** Opens `path` on the test server; resolves once the browser code after hydration runs. */
const open = (page: Page, path: string) => openEnhanced(page, `${baseURL}${path}`);

/** The build id the page runs, from its hand-off data. */
async function runningBuild(page: Page): Promise<string> {
  const json = await page.locator('#lander-data').textContent();
  return JSON.parse(json ?? 'null').handoff.buildId;
}

/** Marks the current document, so a later check tells a client navigation from a full load. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { sameDocument: true }));
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

function countDocuments(page: Page): string[] {
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame()) documents.push(request.url());
  });
  return documents;
}

describe('the hourly build check', () => {
  it('asks for latest.json an hour after the app is ready, then every hour, and keeps client navigation while the build is current', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    await page.clock.install();
    await recordFetches(page);
    const asked: string[] = [];
    await page.route(LATEST, async (route) => {
      asked.push(new URL(route.request().url()).search);
      await route.fulfill({ json: { id: await runningBuild(page), timestamp: 1 } });
    });
    await open(page, '/landing');
    await markDocument(page);

    // The page calls fetch inside the timer that fast-forwarding runs: the record is complete now.
    await page.clock.fastForward('59:00');
    expect(await fetches(page, LATEST)).toEqual([]);
    expect(asked).toEqual([]);

    const first = page.waitForResponse(LATEST);
    await page.clock.fastForward('01:00');
    await first;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^\?\d{13}$/);

    const second = page.waitForResponse(LATEST);
    await page.clock.fastForward('01:00:00');
    await second;
    expect(asked).toHaveLength(2);
    expect(asked[1]).not.toBe(asked[0]);

    const documents = countDocuments(page);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    expect(await sameDocument(page)).toBe(true);
    expect(documents).toEqual([]);
    await context.close();
  });

  it('makes the next navigation a full page load once a newer build is the latest', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    await page.clock.install();
    await recordFetches(page);
    await page.route(LATEST, (route) => route.fulfill({ json: { id: 'a-newer-build', timestamp: Date.now() } }));
    await open(page, '/landing');
    await markDocument(page);

    const checked = page.waitForResponse(LATEST);
    await page.clock.fastForward('01:00:00');
    await checked;
    // Once the page has read the answer, the code awaiting it has stored the newer build.
    await expect.poll(async () => (await fetches(page, LATEST)).map((f) => f.read)).toEqual([true]);

    const documents = countDocuments(page);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    await hydrated(page);
    expect(await sameDocument(page)).toBe(false);
    expect(documents).toEqual([`${baseURL}/`]);
    await context.close();
  });

  it('makes a back step a full page load too once a newer build is the latest', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    await page.clock.install();
    await page.route(LATEST, (route) => route.fulfill({ json: { id: 'a-newer-build', timestamp: Date.now() } }));
    await open(page, '/landing');
    await markDocument(page);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    expect(await sameDocument(page)).toBe(true);

    const checked = page.waitForResponse(LATEST);
    await page.clock.fastForward('01:00:00');
    await checked;
    await marked(page, 'latestBuild', 'a-newer-build');

    const documents = countDocuments(page);
    await page.goBack();
    await page.waitForSelector('.screen.landing');
    await hydrated(page);
    expect(await sameDocument(page)).toBe(false);
    expect(documents).toEqual([`${baseURL}/landing`]);
    await context.close();
  });
});

describe('a screen chunk that fails to load', () => {
  it('reloads the target path once; the guard blocks a second reload within 10 s, and the error page shows', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    await page.clock.install();
    await recordNavigations(page);
    await page.route(DOWNLOAD_CHUNK, (route) => route.abort());
    await open(page, '/landing');
    const documents = countDocuments(page);
    // Documents the page itself replaced (the test's own reload aside): the guard's reloads.
    const pageLoads = async () =>
      (await navigations(page)).filter((n) => !n.startsWith('reload ')).map((n) => n.slice(n.indexOf(' ') + 1));

    await page.click('a[href="/"]');
    // The error page shows only where the guard decided not to reload, which it records first.
    await expect.poll(() => page.locator('.error-page').count(), { timeout: 20_000 }).toBe(1);
    // One reload of /landing; there its chunk fails again, and the guard shows the error page.
    expect(await pageLoads()).toEqual([`${baseURL}/`]);
    expect(documents).toEqual([`${baseURL}/`]);
    expect(await page.textContent('.error-code')).toBe('500');
    expect(page.url()).toBe(`${baseURL}/`);

    // Past the guard's 10 s, the same failure may reload again — once.
    await page.clock.fastForward(10_001);
    await page.reload();
    await expect.poll(() => page.locator('.error-page').count(), { timeout: 20_000 }).toBe(1);
    expect(await pageLoads()).toEqual([`${baseURL}/`, `${baseURL}/`]);
    expect(documents).toEqual([`${baseURL}/`, `${baseURL}/`, `${baseURL}/`]);
    await context.close();
  });
});

describe('route rules in the browser', () => {
  it('leaves the app with location.href for a rule whose target has a protocol', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    await page.route(BUILD_MANIFEST, async (route) =>
      route.fulfill({
        json: {
          id: await runningBuild(page),
          timestamp: 1,
          matcher: [{ path: '/', redirect: { to: 'https://apps.example.test/lander' } }],
        },
      }),
    );
    await page.route('https://apps.example.test/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<p id="outside">the store</p>' }),
    );
    await open(page, '/landing');
    await page.click('a[href="/"]');
    await page.waitForURL('https://apps.example.test/lander');
    expect(await page.textContent('#outside')).toBe('the store');
    await context.close();
  });

  it('redirects a client navigation to a local target before the router moves', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    await page.route(BUILD_MANIFEST, async (route) =>
      route.fulfill({
        json: {
          id: await runningBuild(page),
          timestamp: 1,
          matcher: [{ path: '/', redirect: { to: '/test', status: 302 } }],
        },
      }),
    );
    await open(page, '/landing');
    await markDocument(page);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.diagnostics');
    expect(new URL(page.url()).pathname).toBe('/test');
    expect(await sameDocument(page)).toBe(true);
    await context.close();
  });

  it('navigates without rules, silently, when the manifest answers 404', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const log = watch(page);
    await page.route(BUILD_MANIFEST, (route) => route.fulfill({ status: 404, json: { error: 'Unknown build' } }));
    await open(page, '/landing');
    await markDocument(page);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    expect(await sameDocument(page)).toBe(true);
    expect(log.errors.filter((e) => !e.includes('404'))).toEqual([]);
    expect(log.messages.filter((m) => m.includes('manifest'))).toEqual([]);
    await context.close();
  });

  it('logs any other manifest failure, rethrows it on navigation and lets the worker apply the rules', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const log = watch(page);
    let asked = 0;
    await page.route(BUILD_MANIFEST, (route) => {
      asked += 1;
      return route.fulfill({ status: 500, body: 'down' });
    });
    await open(page, '/landing');
    await page.waitForFunction(() => true);
    await expect.poll(() => log.messages.some((m) => m.includes('the build manifest did not load'))).toBe(true);
    await markDocument(page);
    const documents = countDocuments(page);
    await page.click('a[href="/"]');
    await page.waitForSelector('.screen.download');
    await hydrated(page);
    expect(documents).toEqual([`${baseURL}/`]);
    expect(asked).toBeGreaterThanOrEqual(3); // warm-up and navigation, each retried once on 500 (docs/builds.md)
    expect(log.errors.some((e) => e.includes('500'))).toBe(true);
    await context.close();
  });
});

describe('the debug console', () => {
  const VCONSOLE = /\/assets\/vconsole\.min-[\w-]+\.js$/;

  it('is not fetched without ?debug=1', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => scripts.push(request.url()));
    await open(page, '/');
    // The console is decided with the first build-manifest call, or later on a store update: the
    // last of those comes with both ids resolved, long after any import it started.
    await marked(page, 'identity', 'resolved');
    expect(scripts.filter((url) => VCONSOLE.test(url) || url.includes('debug-console'))).toEqual([]);
    expect(await page.locator('#__vconsole').count()).toBe(0);
    await context.close();
  });

  it('opens vConsole 3.15.1, styled, with ?debug=1', async () => {
    const context = await browser.newContext(DEVICES.android);
    const page = await context.newPage();
    const vconsoleLoaded = page.waitForResponse(VCONSOLE);
    await open(page, '/?debug=1');
    expect((await vconsoleLoaded).status()).toBe(200);
    await page.waitForSelector('#__vconsole .vc-switch');
    const instance = await page.evaluate(() => {
      type Instance = { version: string; option: { network?: { maxNetworkNumber?: number } } };
      const vconsole = (window as unknown as { VConsole: { instance: Instance } }).VConsole.instance;
      return { version: vconsole.version, maxNetwork: vconsole.option.network?.maxNetworkNumber };
    });
    expect(instance).toEqual({ version: '3.15.1', maxNetwork: 1000 });
    const position = await page.$eval('#__vconsole .vc-switch', (el) => getComputedStyle(el).position);
    expect(position).toBe('fixed');
    await context.close();
  });
});

describe('/test', () => {
  it('shows the running and the latest build id', async () => {
    const context = await browser.newContext(DEVICES.desktop);
    const page = await context.newPage();
    await open(page, '/test');
    const running = await runningBuild(page);
    await page.waitForSelector(`td[data-build="${running}"]`);
    const rows = await page.$$eval('.diagnostics tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
    expect(rows).toContain(`build${running}`);
    expect(rows).toContain(`latestBuild${running} (this page)`);
    await context.close();
  });

  it('says "this page" in the page\'s language', async () => {
    const context = await browser.newContext({ ...DEVICES.desktop, locale: 'zh-CN' });
    const page = await context.newPage();
    await open(page, '/test');
    const running = await runningBuild(page);
    await page.waitForSelector(`td[data-build="${running}"]`);
    expect(await page.textContent(`td[data-build="${running}"]`)).toBe(`${running}（本页）`);
    await context.close();
  });
});
