/**
 * Who makes the app and what it is, on an Android phone (docs/screens.md#about-the-app): the about
 * block and the footer's filing numbers as a visitor sees them, and in mainland mode the APK tap
 * that shows the confirmation first — the download starts only on "Download", and "Cancel" closes
 * it. Takes the screenshots docs/screens.md shows.
 */
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { aboutConfig } from '../fixtures/about-config.ts';
import { restoreSeed, storeConfig } from '../fixtures/local-kv.ts';
import { browserForThisFile, DEVICES, hydrated } from './browser.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const browser = browserForThisFile();
const APK = /\/android\/pebble-notes-2\.4\.0\.apk$/;

beforeAll(() => storeConfig(persistTo, aboutConfig({ mainland: true })));
afterAll(() => restoreSeed(persistTo));

/** An Android phone on `path`, hydrated, with every APK request answered here and recorded. */
async function openAndroid(language: string, path = '/') {
  const context = await browser.newContext({
    ...DEVICES.android,
    acceptDownloads: true,
    extraHTTPHeaders: { 'Accept-Language': language },
  });
  const page = await context.newPage();
  const apkRequests: Request[] = [];
  await page.route(APK, (route) => {
    apkRequests.push(route.request());
    return route.fulfill({
      body: 'PK',
      headers: {
        'content-type': 'application/vnd.android.package-archive',
        'content-disposition': 'attachment; filename="pebble-notes-2.4.0.apk"',
      },
    });
  });
  await page.goto(`${baseURL}${path}`);
  await hydrated(page);
  // The confirmation is loaded once the page is interactive.
  await page.waitForSelector('dialog.apk-confirm', { state: 'attached' });
  return { page, apkRequests, close: () => context.close() };
}

const shot = (page: Page, name: string, fullPage = true) =>
  page.screenshot({ path: `docs/screenshots/${name}.png`, fullPage });

describe('an Android phone where the page serves mainland China', () => {
  it('asks before the APK downloads, and downloads only on Download', async () => {
    const { page, apkRequests, close } = await openAndroid('en');
    await page.click('.button-primary[data-kind="apk"]');
    await page.waitForSelector('dialog.apk-confirm[open]');
    expect(await page.textContent('#apk-confirm-title')).toBe('Download Pebble Notes?');
    expect(await page.textContent('dialog.apk-confirm')).toContain('Pebble Labs Ltd.');
    await page.waitForTimeout(300);
    expect(apkRequests).toHaveLength(0);
    await shot(page, 'apk-confirm-android-en', false);
    const downloading = page.waitForEvent('download');
    await page.click('dialog.apk-confirm a.apk-confirm-download');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('pebble-notes-2.4.0.apk');
    expect(apkRequests).toHaveLength(1);
    await page.waitForSelector('dialog.apk-confirm:not([open])', { state: 'attached' });
    await close();
  });

  it('closes on Cancel without downloading', async () => {
    const { page, apkRequests, close } = await openAndroid('zh-CN');
    await page.click('.button-primary[data-kind="apk"]');
    await page.waitForSelector('dialog.apk-confirm[open]');
    expect(await page.textContent('#apk-confirm-title')).toBe('下载「Pebble 笔记」？');
    await shot(page, 'apk-confirm-android-zh-CN', false);
    await page.click('dialog.apk-confirm .apk-confirm-cancel');
    await page.waitForSelector('dialog.apk-confirm:not([open])', { state: 'attached' });
    await page.waitForTimeout(300);
    expect(apkRequests).toHaveLength(0);
    await close();
  });
});

describe('the about block and the filing numbers on a phone', () => {
  for (const language of ['en', 'zh-CN'] as const) {
    for (const path of ['/', '/landing'] as const) {
      it(`${path}, ${language}: every field, the screenshots sized before they load`, async () => {
        const { page, close } = await openAndroid(language, path);
        // The screenshots never arrive here: the boxes measured are the ones reserved before they load.
        await page.route(/\/logo\.png\?shot=/, () => {});
        await page.reload();
        await hydrated(page);
        const heading = language === 'en' ? 'About this app' : '关于此应用';
        expect(await page.textContent('.about-app h2')).toBe(heading);
        const boxes = await page.$$eval('.about-screenshots img', (imgs) =>
          imgs.map((img) => {
            const box = img.getBoundingClientRect();
            return { lazy: img.getAttribute('loading'), ratio: Math.round((box.height / box.width) * 100) };
          }),
        );
        expect(boxes).toEqual([
          { lazy: 'lazy', ratio: Math.round((915 / 412) * 100) },
          { lazy: 'lazy', ratio: Math.round((915 / 412) * 100) },
        ]);
        expect(await page.getAttribute('.site-filings a', 'href')).toBe('https://beian.miit.gov.cn/');
        // For the picture, the screenshots are this phone's own view of the page.
        const phoneView = await page.screenshot();
        await page.unroute(/\/logo\.png\?shot=/);
        await page.route(/\/logo\.png\?shot=/, (route) => route.fulfill({ body: phoneView, contentType: 'image/png' }));
        await page.reload();
        await hydrated(page);
        const name = path === '/' ? 'download' : 'landing';
        await shot(page, `about-${name}-android-${language}`);
        await close();
      });
    }
  }
});
