/**
 * A short link's password form and expired page in real Chromium against the started worker
 * (docs/smart-links.md#links), at phone width in English and Chinese (screenshots in
 * docs/screenshots/): the form shows the app and nothing of the link; a wrong password is said under
 * the field; the right one opens the link's page, its campaign with it. The links room sets and
 * removes a password and edits the rules, showing a line that spells no rule and the worker's refusal.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import type { LinkView } from '../../shared/admin-contract.ts';
import { browserForThisFile, DEVICES, hydrated, screenshot } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const browser = browserForThisFile();
const INVITER = 'Gatekeeper Gail';

async function makeLink(extra: Record<string, unknown> = {}): Promise<string> {
  const slug = `gate-${crypto.randomUUID().slice(0, 6)}`;
  const made = await fetch(`${baseURL}/api/links`, {
    method: 'POST',
    headers: ADMIN,
    body: JSON.stringify({ channel: 'gate', inviter: INVITER, slug, ...extra }),
  });
  expect(made.status).toBe(201);
  return slug;
}

async function phone(locale: string): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES.iPhone, locale });
  return context.newPage();
}

describe("a link's password form", () => {
  it('asks for the password, says a wrong one, and opens the page with the right one (en)', async () => {
    const slug = await makeLink({ password: 'open sesame' });
    const page = await phone('en-US');
    const first = await page.goto(`${baseURL}/s/${slug}`);
    expect(first?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'This link is protected' }).isVisible()).resolves.toBe(true);
    await expect(page.content()).resolves.not.toContain(INVITER);
    await screenshot(page, 'link-password-390-en');
    await page.getByLabel('Password').fill('not the one');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong password. Try again.');
    await expect(page.getByLabel('Password').getAttribute('aria-invalid')).resolves.toBe('true');
    await screenshot(page, 'link-password-wrong-390-en');
    await page.getByLabel('Password').fill('open sesame');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Open' }).click()]);
    await page.waitForLoadState('load');
    await hydrated(page);
    expect(new URL(page.url()).pathname).toBe(`/s/${slug}`);
    await expect(page.content()).resolves.toContain(INVITER);
    const cookie = (await page.context().cookies()).find(({ name }) => name.startsWith('lander_link_'));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `/s/${slug}` });
    // Another browser without the cookie gets the form again.
    const stranger = await phone('en-US');
    await stranger.goto(`${baseURL}/s/${slug}`);
    await expect(stranger.getByLabel('Password').isVisible()).resolves.toBe(true);
    await page.context().close();
    await stranger.context().close();
  });

  it('is in Chinese for a Chinese browser', async () => {
    const slug = await makeLink({ password: 'open sesame' });
    const page = await phone('zh-CN');
    await page.goto(`${baseURL}/s/${slug}`);
    await expect(page.getByRole('heading', { name: '此链接受密码保护' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'link-password-390-zh-CN');
    await page.getByLabel('密码').fill('not the one');
    await page.getByRole('button', { name: '打开' }).click();
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('密码错误，请重试。');
    await page.context().close();
  });
});

describe('an expired link', () => {
  it.each([
    ['en-US', 'en', 'This link has expired'],
    ['zh-CN', 'zh-CN', '此链接已过期'],
  ])('says so with the app and its download (%s)', async (locale, name, words) => {
    const slug = await makeLink({ expiresAt: new Date(Date.now() + 1500).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const page = await phone(locale);
    const answer = await page.goto(`${baseURL}/s/${slug}`);
    expect(answer?.status()).toBe(410);
    await expect(page.getByRole('heading', { name: words }).isVisible()).resolves.toBe(true);
    await expect(page.locator('a.action').isVisible()).resolves.toBe(true);
    await expect(page.content()).resolves.not.toContain(INVITER);
    await screenshot(page, `link-expired-390-${name}`);
    await page.context().close();
  });
});

describe("the links room's password and rules", () => {
  it('sets and removes a password, and edits the rules with the refusals named', async () => {
    const slug = await makeLink();
    const context = await browser.newContext({ ...DEVICES.desktop, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin`);
    await hydrated(page);
    await page.locator('input[type="password"], input[name="token"]').first().fill(TOKEN);
    await page.locator('form button[type="submit"]').first().click();
    const row = page.locator(`[data-slug="${slug}"]`);
    await row.waitFor();

    await row.getByRole('button', { name: `Set password /s/${slug}` }).click();
    await row.getByLabel(`Password /s/${slug}`).fill('open sesame');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.locator('[data-password="set"]').waitFor();
    const shown = async () =>
      ((await (await fetch(`${baseURL}/api/links/${slug}`, { headers: ADMIN })).json()) as LinkView).hasPassword;
    await expect(shown()).resolves.toBe(true);
    await row.getByRole('button', { name: `Remove password /s/${slug}` }).click();
    await row.locator('[data-password="none"]').waitFor();
    await expect(shown()).resolves.toBe(false);

    await row.getByText('Rules (0)').click();
    const rules = row.getByLabel(`Rules /s/${slug}`);
    await rules.fill('os == "iOS" => store\nthis is no rule');
    await row.getByRole('button', { name: 'Save rules' }).click();
    await expect(row.getByRole('alert').textContent()).resolves.toContain('Line 2:');
    await rules.fill('nosuchvariable == "x" => store');
    await row.getByRole('button', { name: 'Save rules' }).click();
    await expect(row.getByRole('alert').textContent()).resolves.toMatch(/rule 1|nosuchvariable/i);
    await rules.fill('os == "iOS" => store\ntrue => page');
    await row.getByRole('button', { name: 'Save rules' }).click();
    await row.getByText('Rules (2)').waitFor();
    const link = (await (await fetch(`${baseURL}/api/links/${slug}`, { headers: ADMIN })).json()) as LinkView;
    expect(link.rules).toEqual([
      { when: 'os == "iOS"', action: 'store' },
      { when: 'true', action: 'page' },
    ]);
    await context.close();
  });
});
