/**
 * The links room's preview editor and rule sets in real Chromium against the started worker
 * (docs/operators.md#the-console, docs/smart-links.md#previews, docs/smart-links.md#rule-sets): a
 * link's preview is written in the console and read by a link previewer; the card is named until
 * `npm run link -- --card-for` draws it, then shown; a variant's preview is edited with its words;
 * rule sets are created (a line that spells no rule and the worker's refusal said), changed and
 * deleted. Screenshots at phone and desktop widths, in English and Chinese.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { LinkView } from '../../shared/admin-contract.ts';
import type { Experiment } from '../../shared/variants.ts';
import { browserForThisFile, DEVICES, hydrated, screenshot } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const browser = browserForThisFile();
const run = promisify(execFile);

async function makeLink(): Promise<string> {
  const slug = `preview-${crypto.randomUUID().slice(0, 6)}`;
  const made = await fetch(`${baseURL}/api/links`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ channel: 'previews', slug, data: { title: 'Spring notes' } }),
  });
  expect(made.status).toBe(201);
  return slug;
}

const linkOf = async (slug: string) =>
  (await (await fetch(`${baseURL}/api/links/${slug}`, { headers: ADMIN })).json()) as LinkView;

async function signedIn(device: keyof typeof DEVICES, locale: string, waitFor: string): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES[device], locale });
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(waitFor).first().waitFor();
  return page;
}

describe("the links room's preview editor", () => {
  it("writes a link's preview that previewers read, names the missing card, then shows it once drawn", async () => {
    const slug = await makeLink();
    const page = await signedIn('desktop', 'en-US', `[data-slug="${slug}"]`);
    const row = page.locator(`[data-slug="${slug}"]`);
    await row.getByText('Preview (none)').click();
    await row.getByLabel(`Title /s/${slug}`).fill('Notes that stay');
    await row.getByLabel(`Description /s/${slug}`).fill('Free this week: every theme included.');
    await row.getByLabel('The link’s card').check();
    await expect(row.locator('[data-card="missing"]').textContent()).resolves.toContain(`--card-for`);
    await row.getByRole('button', { name: 'Save preview' }).click();
    await row.getByText('Preview (set)').waitFor();
    expect((await linkOf(slug)).preview).toEqual({
      title: 'Notes that stay',
      description: 'Free this week: every theme included.',
      image: 'card',
    });
    const shared = await (await fetch(`${baseURL}/s/${slug}`, { headers: { 'user-agent': 'Slackbot 1.0' } })).text();
    expect(shared).toContain('<meta property="og:title" content="Notes that stay"');

    // The card is drawn in Node from the preview's words, uploaded, and then shown in the room.
    const { stdout } = await run(process.execPath, ['scripts/link.ts', '--card-for', slug, '--base', baseURL], {
      env: { ...process.env, ADMIN_TOKEN: TOKEN, LANDER_URL: '' },
    });
    expect(stdout.trim()).toBe(`${baseURL}/s/${slug}/card.png`);
    const card = await fetch(stdout.trim());
    expect([card.status, card.headers.get('content-type')]).toEqual([200, 'image/png']);
    await page.reload();
    await hydrated(page);
    await row.getByText('Preview (set)').click();
    const shown = row.locator('img[data-card="shown"]');
    await shown.waitFor();
    await expect.poll(() => shown.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(1200);
    await row.locator('.link-preview').scrollIntoViewIfNeeded();
    await screenshot(page, 'console-link-preview-1280-en');

    // Every field emptied: the link has no preview again.
    await row.getByLabel(`Title /s/${slug}`).fill('');
    await row.getByLabel(`Description /s/${slug}`).fill('');
    await row.getByLabel('The page’s own').check();
    await row.getByRole('button', { name: 'Save preview' }).click();
    await row.getByText('Preview (none)').waitFor();
    expect((await linkOf(slug)).preview).toBeNull();
    await page.context().close();
  });

  it("refuses an image that is not https with the worker's reason, in Chinese at phone width", async () => {
    const slug = await makeLink();
    const page = await signedIn('iPhone', 'zh-CN', `[data-slug="${slug}"]`);
    const row = page.locator(`[data-slug="${slug}"]`);
    await row.getByText('分享预览 (未设置)').click();
    await row.getByLabel(`标题 /s/${slug}`).fill('留得住的笔记');
    await row.getByLabel('图片地址（https）').first().check();
    // The browser's own check lets an http URL through a pattern-less form only by scripting it.
    await row.getByLabel(`图片地址（https） /s/${slug}`).evaluate((input: HTMLInputElement) => {
      input.removeAttribute('pattern');
      input.type = 'text';
      input.value = 'http://images.example.com/card.png';
    });
    await row.getByRole('button', { name: '保存预览' }).click();
    await expect(row.getByRole('alert').textContent()).resolves.toContain('preview.image');
    expect((await linkOf(slug)).preview).toBeNull();
    await row.locator('.link-preview').scrollIntoViewIfNeeded();
    await screenshot(page, 'console-link-preview-390-zh-CN');
    await page.context().close();
  });

  it("keeps a variant's preview through the variants editor", async () => {
    const slug = await makeLink();
    const experiment: Experiment = {
      variants: [
        { name: 'a', weight: 1, preview: { title: 'Control card' } },
        { name: 'b', weight: 1, headline: 'Free this week', preview: { description: 'All themes' } },
      ],
      event: null,
    };
    const put = await fetch(`${baseURL}/api/links/${slug}/variants`, {
      method: 'PUT',
      headers: ADMIN,
      body: JSON.stringify(experiment),
    });
    expect(put.status).toBe(200);
    const page = await signedIn('desktop', 'en-US', `[data-slug="${slug}"]`);
    const row = page.locator(`[data-slug="${slug}"]`);
    await row.getByText('Edit variants').click();
    const variant = (index: number) => row.locator(`fieldset[data-variant-index="${index}"]`);
    await variant(1).waitFor();
    await expect(variant(0).getByLabel('Preview title').inputValue()).resolves.toBe('Control card');
    await variant(1).getByLabel('Preview title').fill('Free notes');
    await variant(1).getByLabel('Preview image (an https URL)').fill('http://images.example.com/b.png');
    await row.getByRole('button', { name: 'Save variants' }).click();
    const image = variant(1).getByLabel('Preview image (an https URL)');
    await row.locator('small.error').waitFor();
    await expect(image.getAttribute('aria-invalid')).resolves.toBe('true');
    await image.fill('https://images.example.com/b.png');
    await row.getByRole('button', { name: 'Save variants' }).click();
    await row.getByText('Saved').waitFor();
    const kept = (await (
      await fetch(`${baseURL}/api/links/${slug}/variants`, { headers: ADMIN })
    ).json()) as Experiment;
    expect(kept.variants.map(({ preview }) => preview)).toEqual([
      { title: 'Control card' },
      { title: 'Free notes', description: 'All themes', image: 'https://images.example.com/b.png' },
    ]);
    await page.context().close();
  });
});

describe("the links room's rule sets", () => {
  it('creates a set (a wrong line and a refused rule said), changes it and deletes it', async () => {
    const id = `set-${crypto.randomUUID().slice(0, 6)}`;
    const page = await signedIn('desktop', 'en-US', '.rule-sets-panel');
    const panel = page.locator('.rule-sets-panel');
    const form = panel.locator('form.rule-set-form');
    await form.getByLabel('Id').fill(id);
    await form.getByLabel('Rules').fill('os == "iOS" => store\nthis is no rule');
    await form.getByRole('button', { name: 'Create rule set' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toContain('Line 2:');
    await form.getByLabel('Rules').fill('nosuchvariable == "x" => store');
    await form.getByRole('button', { name: 'Create rule set' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toMatch(/nosuchvariable/i);
    await form.getByLabel('Rules').fill('os == "iOS" => store');
    await form.getByRole('button', { name: 'Create rule set' }).click();
    const set = panel.locator(`[data-rule-set="${id}"]`);
    await set.waitFor();
    const read = async () => (await fetch(`${baseURL}/api/rule-sets/${id}`, { headers: ADMIN })).json();
    await expect(read()).resolves.toMatchObject({ rules: [{ when: 'os == "iOS"', action: 'store' }] });

    // An id already kept is said, never replaced from the new set's form.
    await form.getByLabel('Id').fill(id);
    await form.getByLabel('Rules').fill('true => page');
    await form.getByRole('button', { name: 'Create rule set' }).click();
    await expect(form.getByRole('alert').textContent()).resolves.toContain('A rule set has that id');

    await set.locator('summary').click();
    await set.getByLabel(`Rules ${id}`).fill('os == "iOS" => store\ntrue => page');
    await set.getByRole('button', { name: 'Save rules' }).click();
    await panel.locator(`[data-rule-set="${id}"] summary`).getByText('(2)').waitFor();
    await expect(read()).resolves.toMatchObject({
      rules: [
        { when: 'os == "iOS"', action: 'store' },
        { when: 'true', action: 'page' },
      ],
    });
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'console-rule-sets-1280-en');
    await panel
      .locator(`[data-rule-set="${id}"]`)
      .getByRole('button', { name: `Delete ${id}` })
      .click();
    await panel.getByText(`Rule set ${id} deleted.`).waitFor();
    expect((await fetch(`${baseURL}/api/rule-sets/${id}`, { headers: ADMIN })).status).toBe(404);
    await page.context().close();
  });

  it('is read in Chinese at phone width', async () => {
    const id = `zh-${crypto.randomUUID().slice(0, 6)}`;
    const put = await fetch(`${baseURL}/api/rule-sets/${id}`, {
      method: 'PUT',
      headers: ADMIN,
      body: JSON.stringify({ rules: [{ when: 'language == "zh"', action: 'page' }] }),
    });
    expect(put.status).toBe(201);
    const page = await signedIn('iPhone', 'zh-CN', `[data-rule-set="${id}"]`);
    const panel = page.locator('.rule-sets-panel');
    await expect(panel.getByRole('heading', { name: '规则集' }).isVisible()).resolves.toBe(true);
    await panel.locator(`[data-rule-set="${id}"] summary`).click();
    const width = await panel.evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(width[0]).toBeLessThanOrEqual((width[1] ?? 0) + 1);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'console-rule-sets-390-zh-CN');
    await page.context().close();
  });
});
