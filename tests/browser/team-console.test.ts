/**
 * The console's team panel (docs/operators.md#roles) in real Chromium against a worker of its own
 * (browser-kv: it changes who may sign in, so no other file runs beside it): a member added and given
 * another role, then removed; an API key made with its scopes, shown once with a copy button, working
 * as a bearer, then revoked and refused. Takes the panel's screenshots in English and Chinese.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEVICES, hydrated, launch, screenshotOf } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  // Leaves the app without members, as the other files of the project expect.
  const headers = { authorization: `Bearer ${TOKEN}` };
  const { members } = (await (await fetch(`${baseURL}/api/members`, { headers })).json()) as {
    members: { subject: string }[];
  };
  for (const { subject } of members) {
    await fetch(`${baseURL}/api/members/${encodeURIComponent(subject)}`, { method: 'DELETE', headers });
  }
  await browser.close();
});

async function signedIn(options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator('.team-panel').waitFor();
  return page;
}

describe('the team panel', () => {
  it('adds a member, changes its role, removes it', async () => {
    const page = await signedIn({ ...DEVICES.desktop, locale: 'en' });
    const panel = page.locator('.team-panel');
    const form = panel.locator('form[aria-label="Members"]');
    await form.locator('[name="subject"]').fill('Ana@Example.com');
    await form.locator('[name="role"]').selectOption('editor');
    await form.locator('button[type="submit"]').click();
    const row = panel.locator('[data-member="ana@example.com"]');
    await expect.poll(() => row.textContent()).toContain('editor');
    await form.locator('[name="subject"]').fill('ana@example.com');
    await form.locator('[name="role"]').selectOption('analyst');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => row.textContent()).toContain('analyst');
    await row.locator('button').click();
    await expect.poll(() => row.count()).toBe(0);
    await page.context().close();
  });

  it('makes a key shown once with a copy button; the key works, then revoked it is refused', async () => {
    const page = await signedIn({ ...DEVICES.desktop, locale: 'en' });
    const panel = page.locator('.team-panel');
    const form = panel.locator('form[aria-label="API keys"]');
    await form.locator('[name="name"]').fill('ci');
    await form.locator('input[value="links:read"]').check();
    await form.locator('button[type="submit"]').click();
    const shown = panel.locator('[data-new-key]');
    await shown.waitFor();
    const key = (await shown.textContent()) ?? '';
    expect(key).toMatch(/^lk_default_[A-Za-z0-9_-]{43}$/);
    await panel.locator('.secret button').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const bearer = { authorization: `Bearer ${key}` };
    expect((await fetch(`${baseURL}/api/links`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${baseURL}/api/stats`, { headers: bearer })).status).toBe(403);
    // Listed without its secret; revoked from its row.
    const row = panel.locator('.key-list li').filter({ hasText: 'ci' }).first();
    expect(await panel.locator('.key-list').textContent()).not.toContain(key);
    await row.locator('button').click();
    await expect.poll(() => row.textContent()).toContain('revoked');
    expect((await fetch(`${baseURL}/api/links`, { headers: bearer })).status).toBe(401);
    await page.context().close();
  });

  it.each([
    [1280, 'en', 'en'],
    [390, 'zh-CN', 'zh-CN'],
  ] as const)('fits %i px in %s: the screenshot', async (width, locale, name) => {
    const phone = width <= 390;
    const page = await signedIn({
      ...(phone ? DEVICES.iPhone : DEVICES.desktop),
      viewport: { width, height: phone ? 844 : 900 },
      deviceScaleFactor: phone ? 2 : 1,
      locale,
    });
    const panel = page.locator('.team-panel');
    const members = panel.locator('form').first();
    await members.locator('[name="subject"]').fill('viewer@example.com');
    await members.locator('button[type="submit"]').click();
    await panel.locator('[data-member="viewer@example.com"]').waitFor();
    // The role reads in the console's language, never as its id.
    expect(await panel.locator('[data-member="viewer@example.com"]').textContent()).toContain(
      locale === 'zh-CN' ? '查看者' : 'viewer',
    );
    const overflow = await panel.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshotOf(panel, `console-team-${width}-${name}`);
    await page.context().close();
  });
});
