/**
 * A link's variants in real Chromium against the started worker
 * (docs/smart-links.md#variants-and-the-sequential-test): the page shows the visitor's variant —
 * its headline, text and button words — and keeps it on a reload (the `user_id` cookie the first
 * visit was given); the view counts under the variant; the links room says the experiment's verdict
 * in English and in Chinese, and edits a link's variants (a refused field marked with the worker's
 * reason, the saved variant's headline on the link's page, the variants read back and removed in Chinese).
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
      await expect(cell.locator('.experiment').textContent()).resolves.toBe(words);
      await page.context().close();
    }
  });
});

describe("the links room's variants editor", () => {
  it("saves a link's variants, marks a refused field, and the link's page shows the variant", async () => {
    const slug = `edit-${crypto.randomUUID().slice(0, 6)}`;
    const made = await fetch(`${baseURL}/api/links`, {
      method: 'POST',
      headers: ADMIN,
      body: JSON.stringify({ channel: 'variants', slug }),
    });
    expect(made.status).toBe(201);
    const page = await signedIn('en-US', slug);
    const row = page.locator(`[data-slug="${slug}"]`);
    await row.getByText('Edit variants').click();
    const variant = (index: number) => row.locator(`fieldset[data-variant-index="${index}"]`);
    await variant(1).waitFor();
    await expect(row.locator('fieldset.variant-fields').count()).resolves.toBe(2);
    // The control weighs 0: every visitor sees `b`.
    await variant(0).getByLabel('Weight').fill('0');
    await variant(0).getByLabel('Headline').fill('Plain notes');
    await variant(1).getByLabel('Headline').fill('Fresh from the console');
    await variant(1).getByLabel('Button words').fill('Try it');
    await variant(1).getByLabel('Image (https)').fill('http://images.example.com/b.png');
    await row.getByRole('button', { name: 'Save variants' }).click();
    const image = variant(1).getByLabel('Image (https)');
    await row.locator('small.error').waitFor();
    await expect(image.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(variant(1).locator('small.error').textContent()).resolves.toBe('image is not an https URL');
    await image.fill('');
    await row.getByRole('button', { name: 'Save variants' }).click();
    await row.getByRole('status').waitFor();
    await expect(row.getByRole('status').textContent()).resolves.toBe('Saved');
    await expect(image.getAttribute('aria-invalid')).resolves.toBeNull();
    await row.locator('.experiment').waitFor();
    await page.context().close();

    const visitor = await browser.newContext({ ...DEVICES.iPhone, locale: 'en-US' });
    const shown = await visitor.newPage();
    await shown.goto(`${baseURL}/s/${slug}`);
    await hydrated(shown);
    const section = shown.locator('section.variant[data-variant="b"]');
    await expect(section.getByRole('heading', { name: 'Fresh from the console' }).isVisible()).resolves.toBe(true);
    await expect(shown.locator('.button-landing').textContent()).resolves.toBe('Try it');
    await visitor.close();

    const zh = await signedIn('zh-CN', slug);
    const zhRow = zh.locator(`[data-slug="${slug}"]`);
    await zhRow.getByText('编辑变体').click();
    await zhRow.locator('fieldset[data-variant-index="1"]').waitFor();
    await expect(zhRow.locator('fieldset[data-variant-index="1"] legend').textContent()).resolves.toBe('变体 2');
    await expect(zhRow.getByLabel('标题', { exact: true }).nth(1).inputValue()).resolves.toBe('Fresh from the console');
    await zhRow.getByRole('button', { name: '移除全部变体' }).click();
    await zhRow.getByRole('status').waitFor();
    await expect(zhRow.getByRole('status').textContent()).resolves.toBe('已移除');
    const gone = await fetch(`${baseURL}/api/links/${slug}/variants`, { headers: ADMIN });
    expect(gone.status).toBe(404);
    await zh.context().close();
  });
});
