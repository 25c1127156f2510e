/**
 * A link's variants in real Chromium against the started worker
 * (docs/smart-links.md#variants-and-the-sequential-test): the page shows the visitor's variant —
 * its headline, text and button words — and keeps it on a reload (the `user_id` cookie the first
 * visit was given); the view counts under the variant; the links room says the experiment's verdict
 * in English and in Chinese.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it, vi } from 'vitest';
import type { ExperimentView } from '../../shared/variants.ts';
import { browserForThisFile, DEVICES, hydrated } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const browser = browserForThisFile();

// The control weighs 0: every visitor sees `b`, so the page's words are known in advance.
const VARIANTS = [
  { name: 'a', weight: 0, headline: 'Notes that stay' },
  { name: 'b', weight: 1, headline: 'Free this week', text: 'All themes included', button: 'Install free' },
];

async function linkWithVariants(): Promise<string> {
  const slug = `variants-${crypto.randomUUID().slice(0, 6)}`;
  const made = await fetch(`${baseURL}/api/links`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ channel: 'variants', slug }),
  });
  expect(made.status).toBe(201);
  const put = await fetch(`${baseURL}/api/links/${slug}/variants`, {
    method: 'PUT',
    headers: ADMIN,
    body: JSON.stringify({ variants: VARIANTS }),
  });
  expect(put.status).toBe(200);
  return slug;
}

async function experiment(slug: string): Promise<ExperimentView> {
  return (await fetch(`${baseURL}/api/links/${slug}/experiment`, { headers: ADMIN })).json() as Promise<ExperimentView>;
}

async function signedIn(locale: string, slug: string): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES.desktop, locale });
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(`[data-slug="${slug}"]`).waitFor();
  return page;
}

describe('a link with variants', () => {
  it("shows the visitor's variant, keeps it on a reload, and counts the view under it", async () => {
    const slug = await linkWithVariants();
    const context = await browser.newContext({ ...DEVICES.iPhone, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseURL}/s/${slug}`);
    await hydrated(page);
    const variant = page.locator('section.variant[data-variant="b"]');
    await expect(variant.getByRole('heading', { name: 'Free this week' }).isVisible()).resolves.toBe(true);
    await expect(variant.getByText('All themes included').isVisible()).resolves.toBe(true);
    await expect(page.locator('.button-landing').textContent()).resolves.toBe('Install free');
    const cookie = (await context.cookies()).find(({ name }) => name === 'user_id');
    expect(cookie?.value).toMatch(/^[0-9a-f-]{36}$/);
    await page.reload();
    await hydrated(page);
    await expect(page.locator('section.variant').getAttribute('data-variant')).resolves.toBe('b');
    expect((await context.cookies()).find(({ name }) => name === 'user_id')?.value).toBe(cookie?.value);
    await vi.waitFor(async () => expect((await experiment(slug)).arms[1]?.visitors).toBe(1), {
      timeout: 20_000,
      interval: 250,
    });
    await context.close();
  });

  it('is "no winner yet" in the links room, in English and in Chinese', async () => {
    const slug = await linkWithVariants();
    for (const [locale, words] of [
      ['en-US', 'no winner yet'],
      ['zh-CN', '尚无胜出者'],
    ] as const) {
      const page = await signedIn(locale, slug);
      const cell = page.locator(`[data-slug="${slug}"] [data-figure="experiment"]`);
      await cell.locator('.experiment').waitFor();
      await expect(cell.textContent()).resolves.toBe(words);
      await page.context().close();
    }
  });
});
