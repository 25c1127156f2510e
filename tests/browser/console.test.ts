/**
 * The operators' console (docs/operators.md) in real Chromium against the started worker: traffic
 * seeded through the real endpoints (a short link, page views, taps, installs) reaches the console's
 * figures through the queue and D1; an operator signs in, reads them, creates a link and opens it.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { UA } from '../fixtures/agents.ts';
import { clickBody, installBody, issuedClickId, PHONES } from '../fixtures/fake-app.ts';
import { DEVICES, hydrated, launch, screenshot, watch } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

const suffix = crypto.randomUUID().slice(0, 6);
const CHANNEL = `console-${suffix}`;
const INVITER = `Wen Li ${suffix}`;
const SEEDED = { views: 6, taps: 3, installs: 2 };

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseURL}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', 'user-agent': UA.iPhoneSafari, ...headers },
  });
}

/** The channel's row of `/api/stats` (by channel). */
async function channelRow(): Promise<{ views: number; taps: number; installs: number } | undefined> {
  const res = await fetch(`${baseURL}/api/stats?by=channel&channel=${CHANNEL}`, { headers: ADMIN });
  return ((await res.json()) as { rows: { views: number; taps: number; installs: number }[] }).rows[0];
}

/** A link of the channel, six views of it, three taps and two installs, all through the worker's endpoints. */
async function seedTraffic(): Promise<void> {
  const created = await post('/api/links', { channel: CHANNEL, inviter: INVITER }, ADMIN);
  expect(created.status).toBe(201);
  const link = (await created.json()) as { shortUrl: string; url: string };
  const token = new URL(link.url).searchParams.get('d') ?? '';
  for (let i = 0; i < 4; i += 1) await fetch(link.shortUrl, { headers: { 'user-agent': UA.iPhoneSafari } });
  for (let i = 0; i < 2; i += 1) await fetch(link.url, { headers: { 'user-agent': UA.androidChrome } });
  for (const action of ['download', 'store', 'open'] as const) {
    expect((await post('/api/a/click', clickBody(PHONES.iPhone15, { d: token, action }))).status).toBe(204);
  }
  for (let i = 0; i < SEEDED.installs; i += 1) {
    const body = installBody(PHONES.iPhone15, `console-${suffix}-${i}`, {
      clipboard: `${await issuedClickId((path) => fetch(`${baseURL}${path}`))}.${token}`,
    });
    expect((await post('/api/a/install', body)).status).toBe(200);
  }
  await vi.waitFor(async () => expect(await channelRow()).toMatchObject(SEEDED), { timeout: 20_000, interval: 250 });
}

/**
 * The console at `path`, signed in with the admin token in a fresh tab of `profile`, once `ready` (by
 * default the seeded channel's funnel) is shown.
 */
async function signedIn(
  profile: BrowserContextOptions,
  path = '/admin',
  locale = 'en-US',
  ready = `[data-channel="${CHANNEL}"]`,
): Promise<Page> {
  const context = await browser.newContext({ ...profile, locale });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  await page.goto(`${baseURL}${path}`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(ready).waitFor();
  return page;
}

const stepValue = (page: Page, step: string) =>
  page.locator(`[data-channel="${CHANNEL}"] [data-step="${step}"] text`).textContent();

describe('the console', () => {
  beforeAll(seedTraffic, 60_000);

  it('asks for the token first and is never indexed', async () => {
    const context = await browser.newContext(DEVICES.desktop);
    const page = await context.newPage();
    const res = await page.goto(`${baseURL}/admin`);
    await hydrated(page);
    expect(res?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    await expect.poll(() => page.getByLabel('Admin token').isVisible()).toBe(true);
    await context.close();
  });

  it('refuses a wrong token', async () => {
    const context = await browser.newContext(DEVICES.desktop);
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin`);
    await hydrated(page);
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That token was refused.');
    await context.close();
  });

  it('shows the seeded funnel of the channel, and its inviter', async () => {
    const page = await signedIn(DEVICES.desktop);
    const log = watch(page);
    expect(await stepValue(page, 'views')).toBe(String(SEEDED.views));
    expect(await stepValue(page, 'taps')).toBe(String(SEEDED.taps));
    expect(await stepValue(page, 'installs')).toBe(String(SEEDED.installs));
    const inviter = page.locator(`[data-inviter="${INVITER}"] td`);
    // Views, taps, tap rate, attributed installs, install rate, their methods, organic, app events, revenue.
    expect(await inviter.allTextContents()).toEqual(['6', '3', '50.0%', '2', '66.7%', 'clipboard 2', '0', '', '']);
    expect(await page.locator('[data-total="attributed"] .rate').textContent()).toMatch(/% of taps$/);
    await screenshot(page, 'console-desktop');
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('opens a channel’s drill-down, and its address opens the same view in a new tab', async () => {
    const page = await signedIn(DEVICES.desktop);
    const log = watch(page);
    await page.locator(`[data-channel-row="${CHANNEL}"] th a`).click();
    const panel = page.locator(`[data-drill="channel:${CHANNEL}"]`);
    await panel.waitFor();
    const address = new URL(page.url());
    expect(address.searchParams.get('channel')).toBe(CHANNEL);
    expect(address.searchParams.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await panel.locator('[data-fact="methods"] dd').textContent()).toBe(`clipboard ${SEEDED.installs}`);
    await expect
      .poll(() => panel.locator('[data-total="attributed"] .count').textContent())
      .toBe(String(SEEDED.installs));
    // Every view came from an iPhone or an Android phone: the OS table has only those.
    const systems = await panel.locator('.os-table tbody th').allTextContents();
    expect(systems.length).toBeGreaterThan(0);
    expect(systems.every((os) => /ios|android/i.test(os))).toBe(true);
    // The browser's Back step closes it: the drill-down is a history entry of its own.
    await page.goBack();
    await expect.poll(() => page.locator('[data-drill]').count()).toBe(0);
    await page.locator(`[data-channel-row="${CHANNEL}"]`).waitFor();
    await page.context().close();

    const shared = await signedIn(DEVICES.desktop, `${address.pathname}${address.search}`);
    await shared.locator(`[data-drill="channel:${CHANNEL}"] [data-fact="methods"]`).waitFor();
    expect(await shared.locator('input[name="from"]').inputValue()).toBe(address.searchParams.get('from'));
    await shared.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => new URL(shared.url()).searchParams.has('channel')).toBe(false);
    expect(await shared.locator('[data-drill]').count()).toBe(0);
    expect(log.errors).toEqual([]);
    await shared.context().close();
  });

  it.each([
    ['desktop', 'en-US', 'en'],
    ['desktop', 'zh-CN', 'zh-CN'],
    ['iPhone', 'en-US', 'en'],
    ['iPhone', 'zh-CN', 'zh-CN'],
  ] as const)('reads on a %s in %s without sideways scrolling, a drill-down open', async (size, locale, name) => {
    const page = await signedIn(DEVICES[size], `/admin?channel=${encodeURIComponent(CHANNEL)}`, locale);
    await page.locator('[data-drill] [data-fact="methods"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await screenshot(page, `console-${size === 'iPhone' ? 'phone' : 'desktop'}-${name}`);
    await page.context().close();
  });

  it('keeps the token for the tab: a reload stays signed in', async () => {
    const page = await signedIn(DEVICES.desktop);
    await page.reload();
    await page.locator(`[data-channel="${CHANNEL}"]`).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('lander:admin-token'))).toBe(TOKEN);
    await page.context().close();
  });

  it('lists the links once when it opens, and not again when the range changes', async () => {
    const page = await signedIn(DEVICES.desktop);
    const listed: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname === '/api/links') listed.push(request.url());
    });
    await page.reload();
    await page.locator(`[data-channel="${CHANNEL}"]`).waitFor();
    expect(listed).toHaveLength(1);
    const from = page.locator('input[name="from"]');
    const earlier = new Date(Date.parse(await from.inputValue()) - 86_400_000).toISOString().slice(0, 10);
    // The range's three stats calls go out together: once the last has answered, a links call would have gone too.
    const answered = page.waitForResponse(
      (res) => res.url().includes(`from=${earlier}`) && res.url().includes('by=inviter'),
    );
    await from.fill(earlier);
    await answered;
    expect(listed).toHaveLength(1);
    await page.context().close();
  });

  it('loads the figures once when it opens, then asks for nothing while left alone', async () => {
    const page = await signedIn(DEVICES.desktop);
    let asked = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/stats') asked += 1;
    });
    await page.reload();
    await page.locator(`[data-channel="${CHANNEL}"]`).waitFor();
    // Left alone for two seconds: no further call for the figures.
    await page.waitForTimeout(1_000);
    const settled = asked;
    await page.waitForTimeout(2_000);
    expect(asked).toBe(settled);
    expect(settled).toBeLessThanOrEqual(6);
    await page.context().close();
  });

  it('creates a link that opens the campaign’s landing page', async () => {
    const page = await signedIn(DEVICES.desktop);
    const slug = `made-${suffix}`;
    // A channel of its own: opening the link counts a view, which the other tests' figures must not see.
    await page.getByRole('textbox', { name: 'Channel', exact: true }).fill(`${CHANNEL}-made`);
    await page.getByRole('textbox', { name: 'Inviter', exact: true }).fill('Ann Created');
    await page.getByRole('textbox', { name: 'Display text', exact: true }).fill('Spring invite from the console');
    await page.getByRole('textbox', { name: 'Slug', exact: true }).fill(slug);
    await page.getByRole('button', { name: 'Create link' }).click();
    const row = page.locator(`[data-slug="${slug}"]`);
    await row.waitFor();
    const [opened] = await Promise.all([
      page.context().waitForEvent('page'),
      row.getByRole('link', { name: `/s/${slug}`, exact: true }).click(),
    ]);
    await opened.waitForLoadState();
    expect(opened.url()).toBe(`${baseURL}/s/${slug}`);
    expect(await opened.locator('.campaign-inviter strong').textContent()).toBe('Ann Created');
    // The display text the operator typed is what the visitor reads; the channel is not.
    expect(await opened.locator('.campaign-title').textContent()).toBe('Spring invite from the console');
    expect(await opened.locator('main').textContent()).not.toContain(`${CHANNEL}-made`);
    await page.context().close();
  });

  it('says in Chinese that a slug is taken, and what a refused call was', async () => {
    const page = await signedIn(DEVICES.desktop, '/admin', 'zh-CN');
    const slug = `taken-${suffix}`;
    const create = async () => {
      await page.getByRole('textbox', { name: '短链标识', exact: true }).fill(slug);
      await page.getByRole('button', { name: '创建链接' }).click();
    };
    await create();
    await page.locator(`[data-slug="${slug}"]`).waitFor();
    await create();
    await expect
      .poll(() => page.locator('.links-panel [role="alert"]').textContent())
      .toBe('这个短链标识已被使用，请换一个。');
    // A call the API refuses for another reason: its status said in Chinese, then the API's own words.
    await page.route('**/api/links', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 503, json: { error: 'DECODE_KEY is not set' } })
        : route.fallback(),
    );
    await page.getByRole('textbox', { name: '短链标识', exact: true }).fill(`${slug}-2`);
    await page.getByRole('button', { name: '创建链接' }).click();
    await expect
      .poll(() => page.locator('.links-panel [role="alert"]').textContent())
      .toBe('服务器出错（HTTP 503）：DECODE_KEY is not set');
    await page.locator('.links-panel').scrollIntoViewIfNeeded();
    await screenshot(page, 'console-link-refused-zh-CN');
    await page.context().close();
  });

  it('exports the figures as a CSV file', async () => {
    const page = await signedIn(DEVICES.desktop);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^lander-channel-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const path = await download.path();
    const csv = readFileSync(path, 'utf8');
    expect(csv.split('\n').find((line) => line.startsWith(CHANNEL))).toMatch(
      new RegExp(`^${CHANNEL},${SEEDED.views},`),
    );
    await page.context().close();
  });

  it('is never loaded by a visitor’s page', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    for (const path of ['/', '/landing']) {
      await page.goto(`${baseURL}${path}`);
      await hydrated(page);
    }
    expect(requested.filter((url) => url.includes('admin'))).toEqual([]);
    await context.close();
  });

  it('fits a phone', async () => {
    const page = await signedIn(DEVICES.iPhone);
    // Every panel ends inside the screen: wide tables scroll inside their panel instead.
    const rightmost = await page.evaluate(() =>
      Math.max(
        ...[...document.querySelectorAll('.admin .panel, .totals > div')].map(
          (box) => box.getBoundingClientRect().right,
        ),
      ),
    );
    expect(rightmost).toBeLessThanOrEqual(DEVICES.iPhone.viewport.width);
    await screenshot(page, 'console-phone');
    await page.context().close();
  });
});

describe('the console’s range', () => {
  it('shows its default range, and says why, for dates the stats would refuse; it never asks for them', async () => {
    // The daily chart's heading: the figures of some range have been shown.
    const figures = '#daily-heading';
    const page = await signedIn(DEVICES.desktop, '/admin?from=9999-12-31&to=9999-12-31', 'en-US', figures);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/stats') asked.push(request.url());
    });
    await page.reload();
    await page.locator(figures).waitFor();
    const from = await page.locator('input[name="from"]').inputValue();
    const to = await page.locator('input[name="to"]').inputValue();
    expect(to).not.toBe('9999-12-31');
    await expect
      .poll(() => page.locator('.range-note').textContent())
      .toMatch(
        new RegExp(
          `^Those dates cannot be shown \\(from: must not be after [\\d-]{10}\\): showing ${from} to ${to}\\.$`,
        ),
      );
    // A day typed past the bounds: the note says so and the figures stay where they were.
    await page.locator('input[name="to"]').fill('9999-12-30');
    await expect.poll(() => page.locator('.range-note').textContent()).toContain('to: must not be after');
    await page.waitForTimeout(500);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((url) => url.includes('9999'))).toEqual([]);
    await page.context().close();
  });
});
