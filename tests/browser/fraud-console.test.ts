/**
 * The console's Fraud panel in a real browser (docs/fraud.md): an install whose Play referrer says its
 * click came after the install began is flagged, and the panel shows its inviter and channel with the
 * flag, and, on "Show why", the install's reasons. Seeded through the worker's own endpoints.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { installBody, issuedClickId, PHONES } from '../fixtures/fake-app.ts';
import { DEVICES, hydrated, launch, watch } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const suffix = crypto.randomUUID().slice(0, 6);
const CHANNEL = `fraud-${suffix}`;
const INVITER = `Injector ${suffix}`;
const today = new Date().toISOString().slice(0, 10);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
  const created = await fetch(`${baseURL}/api/links`, {
    method: 'POST',
    body: JSON.stringify({ channel: CHANNEL, inviter: INVITER }),
    headers: ADMIN,
  });
  expect(created.status).toBe(201);
  const token = new URL(((await created.json()) as { url: string }).url).searchParams.get('d') ?? '';
  const now = Math.floor(Date.now() / 1000);
  const body = {
    ...installBody(PHONES.galaxyS23, `fraud-${suffix}`, {
      playReferrer: `${await issuedClickId((path) => fetch(`${baseURL}${path}`))}.${token}`,
    }),
    installReferrer: { referrerClickTimestampServerSeconds: now - 600, installBeginTimestampServerSeconds: now - 900 },
  };
  const installed = await fetch(`${baseURL}/api/a/install`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  expect(installed.status).toBe(200);
  await vi.waitFor(
    async () => {
      const res = await fetch(`${baseURL}/api/fraud?from=${today}&to=${today}&channel=${CHANNEL}`, { headers: ADMIN });
      expect(((await res.json()) as { installs: unknown[] }).installs).toHaveLength(1);
    },
    { timeout: 20_000, interval: 250 },
  );
}, 60_000);
afterAll(async () => {
  await browser.close();
});

describe('the Fraud panel', () => {
  it("shows the inviter's flagged install and, on asking, why", async () => {
    const context = await browser.newContext({ ...DEVICES.desktop, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseURL}/admin`);
    await hydrated(page);
    await page.getByLabel('Admin token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const group = page.locator(`[data-fraud-group="${INVITER}/${CHANNEL}"]`);
    await group.waitFor();
    // Watched once signed in: the console's first call, before the token, is refused on purpose.
    const log = watch(page);
    expect(await group.locator('td').allTextContents()).toEqual([
      INVITER,
      CHANNEL,
      '1',
      '1',
      'Click injection 1',
      'Show why',
    ]);
    await group.getByRole('button', { name: 'Show why' }).click();
    await expect
      .poll(() => page.locator('.fraud-installs .fraud-reasons').allTextContents())
      .toEqual(['Click injection: referrer click (Play server clock) 300 s after install began']);
    expect(log.errors).toEqual([]);
    await context.close();
  });
});
