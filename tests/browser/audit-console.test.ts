/**
 * The console's audit log panel (docs/operators.md#audit-log) in real Chromium against the started
 * worker: a link created and changed through the API shows as its entries (who, via, kind, action,
 * target) with each change's before and after; the filters by target, kind, actor and time narrow
 * the page; Older and Newer page through; the export saves the NDJSON log. Takes the panel's
 * screenshots at phone and desktop widths in English and Chinese.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { browserForThisFile, DEVICES, hydrated, screenshotOf, watch } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const browser = browserForThisFile();

const suffix = crypto.randomUUID().slice(0, 6);
const SLUG = `audit-view-${suffix}`;

async function call(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(`${baseURL}${path}`, { method, headers: ADMIN, ...(body ? { body: JSON.stringify(body) } : {}) });
}

/** A context of `width` CSS pixels: a phone's up to 390, else a desktop's. */
function atWidth(width: number, locale: string): BrowserContextOptions {
  const phone = width <= 390;
  return {
    ...(phone ? DEVICES.iPhone : DEVICES.desktop),
    viewport: { width, height: phone ? 844 : 900 },
    deviceScaleFactor: phone ? 2 : 1,
    locale,
    acceptDownloads: true,
  };
}

async function signedIn(options: BrowserContextOptions): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator('.audit-table tbody tr').first().waitFor();
  return page;
}

/** Fills the audit filters' `field` (its name) and applies them. */
async function filterBy(page: Page, fields: Record<string, string>): Promise<void> {
  const form = page.locator('.audit-filters');
  for (const [name, value] of Object.entries(fields)) {
    const field = form.locator(`[name="${name}"]`);
    if (name === 'kind') await field.selectOption(value);
    else await field.fill(value);
  }
  await form.locator('button[type="submit"]').click();
}

/** The targets of the rows shown, newest first. */
const targets = (page: Page) => page.locator('.audit-table tbody tr td:nth-child(6)').allTextContents();

describe('the audit log panel', () => {
  beforeAll(async () => {
    expect((await call('/api/links', 'POST', { channel: `audit-${suffix}`, slug: SLUG })).status).toBe(201);
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expect((await call(`/api/links/${SLUG}`, 'PATCH', { expiresAt })).status).toBe(200);
    // More than a page of entries, so Older has somewhere to go.
    for (let i = 0; i < 26; i += 1) {
      expect((await call('/api/links', 'POST', { channel: `audit-page-${suffix}`, slug: `${SLUG}-${i}` })).status).toBe(
        201,
      );
    }
  }, 60_000);

  it("shows a link's entries with who, via, kind, action and target, and each change's before and after", async () => {
    const page = await signedIn(atWidth(1366, 'en-US'));
    const log = watch(page);
    await filterBy(page, { target: SLUG });
    await expect.poll(() => targets(page)).toEqual([SLUG, SLUG]);
    const [updated, created] = await page.locator('.audit-table tbody tr').all();
    if (!updated || !created) throw new Error('two entries expected');
    expect(await created.locator('td').allTextContents()).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      'token',
      'admin token',
      'Link',
      'created',
      SLUG,
      expect.stringContaining('Show'),
    ]);
    expect(await updated.locator('td').nth(4).textContent()).toBe('updated');

    await updated.getByText('Show').click();
    const expiry = updated.locator('.audit-field', { hasText: 'expiresAt' });
    await expiry.waitFor();
    expect(await expiry.locator('.before').textContent()).toBe('—');
    expect(await expiry.locator('.after ins').textContent()).toMatch(/^20\d\d-/);
    await created.getByText('Show').click();
    expect(await created.locator('.audit-field', { hasText: 'slug' }).locator('ins').textContent()).toBe(SLUG);
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('narrows by kind, actor and time, pages with Older and Newer, and exports the log', async () => {
    const page = await signedIn(atWidth(1366, 'en-US'));
    await filterBy(page, { target: SLUG, kind: 'webhook' });
    await page.locator('.audit-panel .empty').waitFor();
    await filterBy(page, { target: '', kind: 'link', actor: 'token' });
    await expect.poll(async () => (await targets(page)).length).toBe(25);
    // A range that ended before Lander was written holds no entry.
    await filterBy(page, { until: '2020-01-01T00:00' });
    await page.locator('.audit-panel .empty').waitFor();
    await page.locator('.audit-filters button[type="reset"]').click();

    await expect.poll(async () => (await targets(page)).length).toBe(25);
    const first = await page.locator('.audit-table tbody tr').first().getAttribute('data-seq');
    const last = Number(await page.locator('.audit-table tbody tr').last().getAttribute('data-seq'));
    await page.getByRole('button', { name: 'Older' }).click();
    await expect
      .poll(async () => Number(await page.locator('.audit-table tbody tr').first().getAttribute('data-seq')))
      .toBe(last - 1);
    await page.getByRole('button', { name: 'Newer' }).click();
    // Back to the newest page: its first entry, or one written since by another test of the run.
    await expect
      .poll(async () => Number(await page.locator('.audit-table tbody tr').first().getAttribute('data-seq')))
      .toBeGreaterThanOrEqual(Number(first));
    await expect
      .poll(async () => Number(await page.locator('.audit-table tbody tr').last().getAttribute('data-seq')))
      .toBeGreaterThanOrEqual(last);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export (NDJSON)' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toMatch(/^audit-\d{4}-\d\d-\d\d\.ndjson$/);
    const lines = readFileSync((await saved.path()) ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line) as { target: string }).some((entry) => entry.target === SLUG)).toBe(
      true,
    );
    await page.context().close();
  });

  it.each([
    [390, 'en-US', 'en'],
    [390, 'zh-CN', 'zh-CN'],
    [1366, 'en-US', 'en'],
    [1366, 'zh-CN', 'zh-CN'],
  ] as const)('fits %i px in %s, a change shown: the screenshot', async (width, locale, name) => {
    const page = await signedIn(atWidth(width, locale));
    await filterBy(page, { target: SLUG });
    await expect.poll(() => targets(page)).toEqual([SLUG, SLUG]);
    await page.locator('.audit-table tbody tr').first().locator('summary').click();
    await page.locator('.audit-field').first().waitFor();
    const panel = page.locator('.audit-panel');
    const wide = await page.evaluate(() => {
      const box = document.querySelector('.audit-panel');
      return [
        document.documentElement.scrollWidth > document.documentElement.clientWidth,
        (box?.scrollWidth ?? 0) > (box?.clientWidth ?? 0) + 1,
      ];
    });
    expect(wide).toEqual([false, false]);
    await panel.scrollIntoViewIfNeeded();
    await screenshotOf(panel, `console-audit-${width}-${name}`);
    await page.context().close();
  });
});
