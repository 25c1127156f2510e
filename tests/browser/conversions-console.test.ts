/**
 * The console's conversions room (docs/conversions.md#admin-api) in real Chromium against the started
 * worker: an operator adds a postback destination in the room's form (a receiver on 127.0.0.1),
 * sends a test event and sees it delivered, in the status and in the delivery log; edits the
 * destination's name; a destination whose receiver answers 503 shows its test refused in the log. A
 * key without `conversions:read` sees no room. Takes the room's screenshots at phone and desktop
 * widths in English and Chinese, the log open, nothing wider than its panel.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserForThisFile, DEVICES, hydrated, screenshotOf } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const browser = browserForThisFile();

let receiver: Server;
let receiverUrl = '';
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    received.push(request.url ?? '');
    response.writeHead(request.url?.startsWith('/busy') ? 503 : 200).end('{}');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

function atWidth(width: number, locale: string): BrowserContextOptions {
  const phone = width <= 390;
  return {
    ...(phone ? DEVICES.iPhone : DEVICES.desktop),
    viewport: { width, height: phone ? 844 : 900 },
    deviceScaleFactor: phone ? 2 : 1,
    locale,
  };
}

async function signedIn(options: BrowserContextOptions, token = TOKEN, ready = '.conversions-panel'): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(token);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(ready).first().waitFor();
  return page;
}

/** Adds a postback destination named `name` to `path` of the receiver through the room's form. */
async function addPostback(page: Page, name: string, path: string): Promise<void> {
  const form = page.locator('.conversion-form');
  await form.locator('[name="platform"]').selectOption('postback');
  await form.locator('[name="name"]').fill(name);
  await form.locator('[name="url"]').fill(`${receiverUrl}${path}?e={event}&id={event_id}&c={fbclid}`);
  await form.locator('button[type="submit"]').click();
  await page.locator('.conversion-table tr', { hasText: name }).waitFor();
}

const rowOf = (page: Page, name: string) => page.locator('.conversion-table tbody tr', { hasText: name });

describe('the conversions room', () => {
  it('adds a postback, sends a test event and shows it in the log; edits it; shows a refused test', async () => {
    const page = await signedIn(atWidth(1280, 'en-US'));
    const name = `Partner ${crypto.randomUUID().slice(0, 6)}`;
    await addPostback(page, name, '/pb');
    await rowOf(page, name).getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.locator('.test-result').textContent()).toContain('Test event delivered');
    await page.locator('.conversion-log td.outcome.delivered').first().waitFor();
    expect(received.some((url) => url.startsWith('/pb?e=install&id=test_') && url.endsWith('&c=test'))).toBe(true);
    await rowOf(page, name).getByRole('button', { name: 'Edit' }).click();
    await page.locator('.conversion-form [name="name"]').fill(`${name} (edited)`);
    await page.locator('.conversion-form button[type="submit"]').click();
    await rowOf(page, `${name} (edited)`).waitFor();
    const busy = `Busy ${crypto.randomUUID().slice(0, 6)}`;
    await addPostback(page, busy, '/busy');
    await rowOf(page, busy).getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => page.locator('.test-result').textContent()).toContain('503');
    // The failed attempt's own row (the log of the destination tested before may be open beside it).
    const failed = page.locator('.conversion-log tr[data-outcome="failed"]').first();
    await expect.poll(() => failed.locator('td.error').textContent()).toContain('HTTP 503');
    await page.context().close();
  });

  it('is not shown to a key without conversions:read', async () => {
    const res = await fetch(`${baseURL}/api/keys`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ name: 'no-conversions', scopes: ['links:read', 'stats:read'] }),
    });
    const { key } = (await res.json()) as { key: string };
    const page = await signedIn(atWidth(1280, 'en-US'), key, '.admin h2');
    expect(await page.locator('.conversions-panel').count()).toBe(0);
    await page.context().close();
  });

  it.each([
    [390, 'en-US', 'en'],
    [390, 'zh-CN', 'zh-CN'],
    [1280, 'en-US', 'en'],
    [1280, 'zh-CN', 'zh-CN'],
  ] as const)('fits %i px in %s, the log open: the screenshot', async (width, locale, name) => {
    const page = await signedIn(atWidth(width, locale));
    const first = page.locator('.conversion-table tbody tr').first();
    await first.waitFor();
    await first.locator('button').first().click();
    await page.locator('.conversion-log, .conversions-panel .empty').first().waitFor();
    const wide = await page.evaluate(() => {
      const box = document.querySelector('.conversions-panel');
      return [
        document.documentElement.scrollWidth > document.documentElement.clientWidth,
        (box?.scrollWidth ?? 0) > (box?.clientWidth ?? 0) + 1,
      ];
    });
    expect(wide).toEqual([false, false]);
    const panel = page.locator('.conversions-panel');
    await panel.scrollIntoViewIfNeeded();
    await screenshotOf(panel, `console-conversions-${width}-${name}`);
    await page.context().close();
  });
});
