/**
 * The links room as the operator may use it (docs/operators.md#the-console), in real Chromium against
 * the started worker: signed in with a key that reads links but may not change them, the room offers
 * no form or button the worker would refuse; and an expired link, whose QR code the worker no longer
 * draws, shows a dash instead of a broken picture, and the style's preview is of a live link.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserForThisFile, DEVICES, hydrated } from './browser.ts';

const baseURL = inject('baseURL');
const ADMIN = { authorization: 'Bearer lander-dev-admin', 'content-type': 'application/json' };
const browser = browserForThisFile();
const suffix = crypto.randomUUID().slice(0, 6);

async function admin(path: string, body: unknown): Promise<Response> {
  return fetch(`${baseURL}${path}`, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) });
}

async function signedIn(token: string, slug: string): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES.desktop, viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[type="password"], input[name="token"]').first().fill(token);
  await page.locator('form button[type="submit"]').first().click();
  await page.locator(`[data-slug="${slug}"]`).waitFor();
  return page;
}

describe('the links room', () => {
  it('only reads for a key without links:write: no form, no change, no save', async () => {
    const slug = `read-${suffix}`;
    const created = await admin('/api/links', { channel: 'read-only', slug, password: 'a long password' });
    expect(created.status).toBe(201);
    const made = await admin('/api/keys', { name: `reader-${suffix}`, scopes: ['links:read', 'stats:read'] });
    expect(made.status).toBe(201);
    const page = await signedIn(((await made.json()) as { key: string }).key, slug);
    const room = page.locator('.links-panel');
    const row = room.locator(`[data-slug="${slug}"]`);
    expect(await row.locator('[data-password]').textContent()).toBe('Password set');
    expect(await row.locator('[data-expires]').textContent()).toBe('never');
    await row.locator('.link-rules summary').click();
    expect(await row.locator('.link-rules textarea').getAttribute('readonly')).not.toBeNull();
    // What is left to press: the copy button, the figures, the QR code and its downloads.
    expect(await room.locator('form input, form button').count()).toBe(0);
    expect(await row.locator('button').allTextContents()).toEqual(['Copy']);
    expect(await row.locator('.link-variants').count()).toBe(0);
    // A preview is read, never offered to change.
    await row.locator('.link-preview summary').click();
    expect(await row.locator('.link-preview form, .link-preview input').count()).toBe(0);
    expect(await page.locator('.team-panel, .audit-panel, .webhooks-panel').count()).toBe(0);
    await page.context().close();
  });

  it('shows an expired link without its QR code, and previews the style on a live one', async () => {
    const live = `live-${suffix}`;
    const gone = `gone-${suffix}`;
    expect((await admin('/api/links', { channel: 'qr', slug: live })).status).toBe(201);
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    expect((await admin('/api/links', { channel: 'qr', slug: gone, expiresAt })).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await fetch(`${baseURL}/s/${gone}.svg`)).status).toBe(404);
    const page = await signedIn('lander-dev-admin', gone);
    const row = page.locator(`[data-slug="${gone}"]`);
    expect(await row.locator('[data-qr="expired"]').count()).toBe(1);
    expect(await row.locator('img, a[download]').count()).toBe(0);
    const preview = page.locator('.qr-style-preview');
    // The newest link that has not expired: `live` unless another file's link came after it.
    await page.locator(`[data-slug="${live}"]`).waitFor();
    const newestLive = await page
      .locator('[data-slug]')
      .evaluateAll(
        (rows) => rows.find((row) => !row.querySelector('[data-qr="expired"]'))?.getAttribute('data-slug') ?? null,
      );
    expect(newestLive).not.toBe(gone);
    expect(await preview.getAttribute('src')).toContain(`/s/${newestLive}.svg`);
    await preview.evaluate((image: HTMLImageElement) => image.decode());
    await page.context().close();
  });
});
