/**
 * The core visitor checks in Safari's engine (WebKitGTK's MiniBrowser, tests/browser/webkit.ts) with
 * an iPhone agent, against the started worker: the page hydrates without a console error, shows the
 * App Store button (docs/screens.md), stores both ids (docs/identity.md), and the open-app tap
 * follows the Universal Link with the query data. WebKitGTK has no touch emulation: the tap is a
 * WebDriver click, which the page's click listener sees the same way.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FINGERPRINT_ID_KEY, USER_ID_KEY } from '../../shared/identity.ts';
import { AGENTS } from '../fixtures/agents.ts';
import { recordingFront, webkitForThisFile } from './webkit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const webkit = webkitForThisFile();
let front: Awaited<ReturnType<typeof recordingFront>>;

beforeAll(async () => {
  front = await recordingFront(inject('baseURL'));
});
afterAll(async () => {
  await front?.stop();
});

const HYDRATED = "return document.documentElement.dataset.hydrated === 'true'";
const ERRORS = 'return window.__errors';

// MiniBrowser may take up to SESSION_TIMEOUT_MS to open its window on a busy machine, before the test's own steps.
describe('the download page in WebKit on an iPhone agent', { timeout: 90_000 }, () => {
  it('hydrates without a console error, shows the App Store button and stores both ids', async () => {
    const page = await webkit.session(AGENTS.iPhoneSafari.agent);
    await page.goto(`${front.url}/`);
    await page.waitFor('hydration', HYDRATED);
    expect(await page.run<string>('return navigator.userAgent')).toBe(AGENTS.iPhoneSafari.agent);

    const primary = await page.find('.download .button-primary');
    expect(await primary.attribute('href')).toBe('https://apps.apple.com/app/id6740858208?pt=118342');
    expect(await primary.text()).toBe('Download on the App Store');
    expect(await page.run<number>("return document.querySelectorAll('.download .button-store').length")).toBe(0);

    // The fingerprint id waits for a quiet page after the load event (docs/identity.md).
    await page.waitFor('both ids resolved', "return document.documentElement.dataset.identity === 'resolved'");
    const stored = await page.run<{ userId: string; fingerprintId: string; cookie: string }>(
      'return { userId: localStorage.getItem(arguments[0]), fingerprintId: localStorage.getItem(arguments[1]), cookie: document.cookie }',
      USER_ID_KEY,
      FINGERPRINT_ID_KEY,
    );
    expect(stored.userId).toMatch(UUID);
    expect(stored.fingerprintId).toMatch(/^[0-9a-f]{32}$/);

    mkdirSync('docs/screenshots', { recursive: true });
    const png = await page.screenshot();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    writeFileSync('docs/screenshots/download-iphone-webkit.png', png);

    expect(await page.run<string[]>(ERRORS)).toEqual([]);
    await page.close();
  });

  it('the open-app tap follows the Universal Link with the query data', async () => {
    const page = await webkit.session(AGENTS.iPhoneSafari.agent);
    await page.goto(`${front.url}/?channel=spring&inviter=Ann`);
    await page.waitFor('hydration', HYDRATED);
    await page.waitFor('the tap watcher', "return document.documentElement.dataset.openApp === 'ready'");
    const expected = 'https://open.pebble-notes.example/open/?channel=spring&inviter=Ann';
    const open = await page.find('.button-open');
    expect(await open.attribute('href')).toBe(expected);
    expect(await page.run<string[]>(ERRORS)).toEqual([]);
    await open.click();
    // That domain does not resolve here: WebKit stays on the address it was sent to.
    await expect.poll(() => page.url(), { timeout: 30_000 }).toBe(expected);
    await page.close();
  });
});
