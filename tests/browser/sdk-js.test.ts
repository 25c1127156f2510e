/**
 * The JS SDK (sdk/js) end to end against the started worker: a tap on the campaign page in Chromium
 * leaves its carrier link on the clipboard, and the SDK's `install()` in Node, handed that clipboard,
 * is matched by `clipboard` with the campaign's data; the Play link's referrer is matched by
 * `referrer`; a second launch sends nothing; `open()` of the carrier link is answered with its campaign.
 */
import { execFileSync } from 'node:child_process';
import type { BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createLander, type DeviceFacts, memoryStore, type PlatformAdapter } from '../../sdk/js/src/index.ts';
import { UA } from '../fixtures/agents.ts';
import { DEMO, demoWith } from '../fixtures/config.ts';
import { restoreSeed, storeConfig } from '../fixtures/local-kv.ts';
import { browserForThisFile, DEVICES, hydrated, marked } from './browser.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const browser = browserForThisFile();
const APP = 'com.pebble.notes';
const CAMPAIGN = { channel: 'spring-sale', inviter: 'Ann Lee' };

const IPHONE: DeviceFacts = {
  platform: 'ios',
  osVersion: '17.5.1',
  model: 'iPhone16,1',
  screen: { w: 393, h: 852, scale: 3 },
  tz: 'Asia/Shanghai',
  langs: ['zh-Hans-CN'],
};
const GALAXY: DeviceFacts = {
  platform: 'android',
  osVersion: '14',
  model: 'SM-S911B',
  screen: { w: 360, h: 780, scale: 3 },
  tz: 'Asia/Kolkata',
  langs: ['en-IN'],
};

/** A campaign link minted by `npm run link`, on `path` of the started worker. */
function mintLink(path: string): string {
  const minted = execFileSync(
    process.execPath,
    ['scripts/link.ts', '--channel', CAMPAIGN.channel, '--inviter', CAMPAIGN.inviter, '--base', baseURL],
    { encoding: 'utf8', env: { ...process.env, DECODE_KEY: '' } },
  ).trim();
  return `${baseURL}${path}${new URL(minted).search}`;
}

/** The page at `url`, tapped at `selector`: what the tap wrote to the clipboard and the link it followed. */
async function tap(profile: BrowserContextOptions, url: string, selector: string) {
  const context = await browser.newContext(profile);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  const followed: string[] = [];
  await context.exposeFunction('recordFollow', (href: string) => followed.push(href));
  // The page stays where a phone would leave for the store: the link is recorded, the navigation cancelled.
  await page.addInitScript(() => {
    window.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest('a') : null;
      if (!link || event.defaultPrevented) return;
      (window as unknown as { recordFollow(href: string): void }).recordFollow(link.href);
      event.preventDefault();
    });
  });
  const beacon = page.waitForResponse((response) => response.url().endsWith('/api/a/click'));
  await page.goto(url);
  await hydrated(page);
  await marked(page, 'openApp', 'ready');
  await page.tap(selector);
  expect((await beacon).status()).toBe(204);
  await expect.poll(() => followed.length).toBeGreaterThan(0);
  const clipboard = await page.evaluate(() => navigator.clipboard.readText().catch(() => ''));
  await context.close();
  return { clipboard, followed: followed[0] ?? '' };
}

/** A phone's platform for the SDK, and the number of requests the SDK made through it. */
function phone(
  device: DeviceFacts,
  carriers: Omit<PlatformAdapter, 'storage' | 'device'>,
  store = new Map<string, string>(),
) {
  const sent: string[] = [];
  const platform: PlatformAdapter = { storage: memoryStore(store), device: () => device, ...carriers };
  const fetcher: typeof fetch = (input, init) => {
    sent.push(String(input));
    return fetch(input, init);
  };
  const launch = () => createLander({ url: baseURL, app: APP, platform, fetch: fetcher, timeoutMs: 10_000 });
  return { sent, launch };
}

describe('iPhone: the campaign page’s tap, then the app’s first launch', () => {
  it('is matched by clipboard with the campaign’s data; the second launch sends nothing', async () => {
    const { clipboard } = await tap(DEVICES.iPhone, mintLink('/landing'), '.button-landing');
    expect(clipboard).toMatch(new RegExp(`^${baseURL}/i/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]+$`));
    const clickId = clipboard.slice(`${baseURL}/i/`.length).split('.')[0];

    const device = phone(IPHONE, { clipboard: () => clipboard });
    const first = await device.launch().install();
    expect(first).toEqual({
      matched: true,
      method: 'clipboard',
      confidence: 100,
      data: CAMPAIGN,
      clickId,
      clickedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(device.sent).toEqual([`${baseURL}/api/a/install`]);

    const second = device.launch();
    expect(await second.install()).toEqual(first);
    expect(await second.pendingLink()).toMatchObject({ clickId, method: 'clipboard', data: CAMPAIGN });
    expect(device.sent).toHaveLength(1);
  });

  it('open() of the carrier link is answered with its campaign', async () => {
    const { clipboard } = await tap(DEVICES.iPhone, mintLink('/landing'), '.button-landing');
    const answer = await phone(IPHONE, {}).launch().open(clipboard);
    expect(answer).toMatchObject({ matched: true, method: 'clipboard', data: CAMPAIGN });
  });

  it('a clipboard link of another host is never sent: the install is answered without it', async () => {
    const { clipboard } = await tap(DEVICES.iPhone, mintLink('/landing'), '.button-landing');
    const elsewhere = clipboard.replace(baseURL, 'https://evil.example');
    const answer = await phone({ ...IPHONE, tz: 'Pacific/Chatham' }, { clipboard: () => elsewhere })
      .launch()
      .install();
    expect(answer).toEqual({ matched: false, reason: 'none' });
  });
});

describe('Android: the Play link’s referrer', () => {
  beforeAll(() => {
    // No APK: Android visitors get the Play store link.
    storeConfig(persistTo, demoWith({ appData: DEMO.appData.map(({ download_url: _, ...item }) => item) }));
  }, 60_000);
  afterAll(() => {
    restoreSeed(persistTo);
  }, 60_000);

  it('is matched by referrer with the campaign’s data', async () => {
    const { followed } = await tap(
      { ...DEVICES.android, userAgent: UA.androidChrome },
      mintLink('/'),
      '.button-primary',
    );
    const play = new URL(followed);
    expect(`${play.origin}${play.pathname}`).toBe('https://play.google.com/store/apps/details');
    const referrer = play.searchParams.get('referrer') ?? '';

    const device = phone(GALAXY, { playReferrer: () => referrer });
    expect(await device.launch().install()).toMatchObject({
      matched: true,
      method: 'referrer',
      clickId: referrer.split('.')[0],
      data: CAMPAIGN,
    });
  });
});

describe('events', () => {
  it('a tracked event is accepted and leaves the queue', async () => {
    const store = new Map<string, string>();
    const device = phone(IPHONE, {}, store);
    const lander = device.launch();
    lander.track('register');
    await lander.flush();
    expect(device.sent).toEqual([`${baseURL}/api/a/event`]);
    expect(JSON.parse(store.get(`lander:${APP}:events`) ?? 'null')).toEqual([]);
  });
});
