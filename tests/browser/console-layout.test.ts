/**
 * The console at every width an operator uses (docs/operators.md#the-console), in real Chromium
 * against the started worker, with links, webhooks of long URLs and counted traffic: nothing
 * scrolls sideways — not the document, not a panel, not a table — and every button is inside its
 * panel, at 320, 390, 768, 1366 and 1920 px, in English and Chinese. The screenshots of docs/ are
 * taken here. Then the links list: each link's figures for the range, its expiry changed in place,
 * its QR code downloaded as PNG and SVG.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { UA } from '../fixtures/agents.ts';
import { clickBody, installBody, issuedClickId, PHONES } from '../fixtures/fake-app.ts';
import { DEVICES, hydrated, launch, watch } from './browser.ts';

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
/** A channel name as long as an operator's campaign names get, without a space to break it at. */
const CHANNEL = `summer-campaign-with-a-very-long-name-for-the-partner-network-${suffix}`;
const SLUG = `layout-${suffix}`;
const LONG_URL = `https://hooks.partner-crm-integration.example.com/api/v2/webhooks/lander/installs/receive?tenant=acme-${suffix}&signature-version=v1&route=marketing-attribution-and-analytics-pipeline`;

async function call(path: string, method = 'GET', body?: unknown, agent = UA.iPhoneSafari): Promise<Response> {
  return fetch(`${baseURL}${path}`, {
    method,
    headers: { ...ADMIN, 'user-agent': agent },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** The link's row of `/api/stats?by=link` for the console's default range (the last 7 days). */
async function linkRow(from: string, to: string): Promise<{ views: number; taps: number; attributed: number }> {
  const res = await call(`/api/stats?by=link&link=${SLUG}&from=${from}&to=${to}`);
  const rows = ((await res.json()) as { rows: { views: number; taps: number; attributed: number }[] }).rows;
  return rows[0] ?? { views: 0, taps: 0, attributed: 0 };
}

/**
 * A short link of a long channel with three views, two taps and one install through the worker's
 * endpoints; more links of long names; webhook endpoints of long URLs, one failing.
 */
async function seed(): Promise<void> {
  const created = await call('/api/links', 'POST', {
    channel: CHANNEL,
    inviter: `Inviter With A Long Name ${suffix}`,
    slug: SLUG,
  });
  expect(created.status).toBe(201);
  const link = (await created.json()) as { shortUrl: string; url: string };
  const token = new URL(link.url).searchParams.get('d') ?? '';
  for (let i = 0; i < 3; i += 1) await fetch(link.shortUrl, { headers: { 'user-agent': UA.iPhoneSafari } });
  for (const action of ['download', 'store'] as const) {
    expect(
      (await call('/api/a/click', 'POST', { ...clickBody(PHONES.iPhone15, { d: token, action }), link: SLUG })).status,
    ).toBe(204);
  }
  const install = installBody(PHONES.iPhone15, `layout-${suffix}`, {
    clipboard: `${await issuedClickId((path) => fetch(`${baseURL}${path}`))}.${token}`,
  });
  expect((await call('/api/a/install', 'POST', install)).status).toBe(200);
  for (let i = 0; i < 3; i += 1) {
    const more = await call('/api/links', 'POST', {
      channel: `${CHANNEL}-${i}`,
      inviter: `第${i}位邀请人的名字很长很长很长很长很长很长`,
      expiresAt: new Date(Date.now() + (i + 1) * 86_400_000 * 30).toISOString(),
    });
    expect(more.status).toBe(201);
  }
  for (const [url, enabled] of [
    [LONG_URL, true],
    [`${LONG_URL}&copy=2`, false],
  ] as const) {
    const res = await call('/api/webhooks', 'POST', { url, enabled, description: `CRM ${suffix}`, events: ['open'] });
    expect(res.status).toBe(201);
  }
  const today = new Date().toISOString().slice(0, 10);
  const weekAgo = new Date(Date.now() - 8 * 86_400_000).toISOString().slice(0, 10);
  await vi.waitFor(async () => expect(await linkRow(weekAgo, today)).toMatchObject({ views: 3, taps: 2 }), {
    timeout: 20_000,
    interval: 250,
  });
}

/** A context of `width` CSS pixels: a phone's (touch, its viewport meta honoured) up to 390, else a desktop's. */
function atWidth(width: number, locale: string): BrowserContextOptions {
  const phone = width <= 390;
  return {
    ...(phone ? DEVICES.iPhone : DEVICES.desktop),
    viewport: { width, height: phone ? 844 : 900 },
    deviceScaleFactor: phone ? 2 : 1,
    locale,
  };
}

async function signedIn(options: BrowserContextOptions, path = '/admin'): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(`${baseURL}${path}`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(`[data-slug="${SLUG}"] [data-figure="views"]`).waitFor();
  await page.locator('.webhooks-table tbody tr').first().waitFor();
  await page.locator(`[data-channel-row="${CHANNEL}"]`).waitFor();
  return page;
}

/**
 * Everything that sticks out sideways: the document wider than the window, any panel, table or form
 * whose content is wider than its box, and any control whose right edge is past its panel's.
 */
function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (element: Element) =>
      `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}${element.id ? `#${element.id}` : ''}`;
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`document ${root.scrollWidth} > ${root.clientWidth}`);
    const boxes =
      '.admin .panel, .admin table, .admin .table-fit, .admin form, .admin header, .totals > div, .webhook-log';
    for (const box of document.querySelectorAll(boxes)) {
      if (box.scrollWidth > box.clientWidth + 1) found.push(`${name(box)} ${box.scrollWidth} > ${box.clientWidth}`);
    }
    for (const control of document.querySelectorAll('.admin button, .admin a, .admin input, .admin select')) {
      const rect = control.getBoundingClientRect();
      if (rect.width === 0) continue;
      const edge = control.closest('.panel, .totals > div')?.getBoundingClientRect().right ?? window.innerWidth;
      if (rect.right > Math.min(edge, window.innerWidth) + 1) {
        found.push(`${name(control)} "${control.textContent?.trim()}" ends at ${Math.round(rect.right)} past ${edge}`);
      }
    }
    return found;
  });
}

/**
 * Two pictures of the console for docs/screenshots/: its top as the window shows it
 * (`<name>.png`), and the links and webhooks panels, whole (`<name>-links-webhooks.png`).
 */
async function screenshots(page: Page, name: string): Promise<void> {
  // The QR thumbnails load as they near the window: a picture of the whole panel wants them all.
  await page.locator('.qr-thumb').evaluateAll((images) => {
    for (const image of images) (image as HTMLImageElement).loading = 'eager';
  });
  await page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('.qr-thumb')].every((image) => image.complete),
  );
  const scrolled = await page.evaluate(() => window.scrollY);
  const links = await page.locator('.links-panel').boundingBox();
  const hooks = await page.locator('.webhooks-panel').boundingBox();
  if (!links || !hooks) throw new Error('the links and webhooks panels are not shown');
  const width = page.viewportSize()?.width ?? 0;
  const top = links.y + scrolled - 8;
  await page.screenshot({
    path: `docs/screenshots/${name}-links-webhooks.png`,
    fullPage: true,
    clip: { x: 0, y: top, width, height: hooks.y + scrolled + hooks.height + 8 - top },
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `docs/screenshots/${name}.png` });
}

describe('the console at every width', () => {
  beforeAll(seed, 90_000);

  const WIDTHS = [320, 390, 768, 1366, 1920] as const;
  const LANGUAGES = [
    ['en-US', 'en'],
    ['zh-CN', 'zh-CN'],
  ] as const;
  it.each(WIDTHS.flatMap((width) => LANGUAGES.map(([locale, name]) => [width, locale, name] as const)))(
    'has nothing past the edge at %i px in %s: document, panels, tables and buttons',
    async (width, locale, name) => {
      // A drill-down open and a delivery log shown: every table of the console is on the page.
      const page = await signedIn(atWidth(width, locale), `/admin?channel=${encodeURIComponent(CHANNEL)}`);
      const log = watch(page);
      await page.locator('[data-drill] [data-fact="methods"]').waitFor();
      await page.locator('.webhooks-table tbody tr').first().locator('button').nth(3).click();
      await page.locator('.webhook-log').waitFor();
      await page.locator('.webhook-log .empty, .webhook-log .attempts-table').first().waitFor();
      expect(await overflows(page)).toEqual([]);
      if (width !== 320) await screenshots(page, `console-${width}-${name}`);
      expect(log.errors).toEqual([]);
      await page.context().close();
    },
  );

  it('reads each table row as a card of labelled cells on a phone, every column there', async () => {
    const page = await signedIn(atWidth(390, 'en-US'));
    const row = page.locator('.webhooks-table tbody tr').first();
    expect(await row.locator('td').nth(0).getAttribute('data-label')).toBe('Endpoint URL');
    // Its heading is shown beside each value: the row is a card, not a line wider than the screen.
    const label = await row
      .locator('td')
      .nth(2)
      .evaluate((cell) => getComputedStyle(cell, '::before').content);
    expect(label).toBe('"State"');
    for (const name of ['Send test', 'Delivery log', 'Delete']) {
      expect(await row.getByRole('button', { name }).isVisible()).toBe(true);
    }
    await page.context().close();
  });
});

describe('the links list', () => {
  it('shows each link’s views, taps and attributed installs for the console’s range', async () => {
    const page = await signedIn(atWidth(1366, 'en-US'));
    const from = await page.locator('input[name="from"]').inputValue();
    const to = await page.locator('input[name="to"]').inputValue();
    const expected = await linkRow(from, to);
    expect(expected.views).toBe(3);
    const row = page.locator(`[data-slug="${SLUG}"]`);
    const figure = (name: string) => row.locator(`[data-figure="${name}"]`).textContent();
    await expect.poll(() => figure('views')).toBe(String(expected.views));
    expect(await figure('taps')).toBe(String(expected.taps));
    expect(await figure('installs')).toBe(String(expected.attributed));
    // A range before the link existed: nothing counted.
    await page.locator('input[name="from"]').fill('2001-01-01');
    await page.locator('input[name="to"]').fill('2001-01-07');
    await expect.poll(() => figure('views')).toBe('0');
    await page.context().close();
  });

  it('changes a link’s expiry in place, read in the operator’s zone, and makes it never expire again', async () => {
    const page = await signedIn(atWidth(1366, 'en-US'));
    const zone = (await page.locator('.zone').textContent()) ?? 'UTC';
    const row = page.locator(`[data-slug="${SLUG}"]`);
    await row.getByRole('button', { name: /^Change Expires/ }).click();
    const year = new Date().getUTCFullYear() + 1;
    await row.locator('input[name="expiresAt"]').fill(`${year}-03-04T05:06`);
    await row.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => row.locator('[data-expires]').textContent()).toBe(`${year}-03-04 05:06`);
    const stored = async () => {
      const { links } = (await (await call('/api/links')).json()) as {
        links: { slug: string; expiresAt: string | null }[];
      };
      return links.find((link) => link.slug === SLUG)?.expiresAt;
    };
    // The typed time is the operator's zone's wall clock.
    const wall = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' });
    const saved = await stored();
    expect(saved && wall.format(new Date(saved))).toBe(`${year}-03-04 05:06`);
    await row.getByRole('button', { name: /^Change Expires/ }).click();
    await row.getByRole('button', { name: 'Never expire' }).click();
    await expect.poll(() => row.locator('[data-expires]').textContent()).toBe('never');
    expect(await stored()).toBeNull();
    await page.context().close();
  });

  it('downloads a link’s QR code as PNG and as SVG, named for the link', async () => {
    const page = await signedIn(atWidth(1366, 'en-US'));
    const row = page.locator(`[data-slug="${SLUG}"]`);
    for (const [format, start] of [
      ['PNG', '\u0089PNG'],
      ['SVG', '<svg'],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        row.getByRole('link', { name: `Download the QR code as ${format} /s/${SLUG}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`qr-${SLUG}.${format.toLowerCase()}`);
      expect(readFileSync(await download.path(), 'latin1').startsWith(start)).toBe(true);
    }
    await page.context().close();
  });
});
