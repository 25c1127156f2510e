/**
 * The console's webhooks panel (docs/webhooks.md#the-console) in real Chromium against the started
 * worker: an operator adds an endpoint (a receiver on 127.0.0.1 that verifies with
 * `standardwebhooks`), sees its secret once, sends a test, reads the delivery log, and sees an
 * endpoint disabled after 3 days of failures, or because its receiver answered 410 Gone, and enables
 * it again; rotates the secret, the receiver still verifying with the old one during the overlap.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEVICES, hydrated, launch, watch } from './browser.ts';
import { localSql } from './local-d1.ts';

const baseURL = inject('baseURL');
const persistTo = inject('kvPersistTo');
const TOKEN = 'lander-dev-admin';

let browser: Browser;
let receiver: Server;
let receiverUrl = '';
let secret = '';
const verified: unknown[] = [];
/** A second receiver path (`…/retry`), taken without verifying: it answers 503 while this is set. */
let retryFails = true;

beforeAll(async () => {
  browser = await launch();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url?.endsWith('/retry')) {
        response.writeHead(retryFails ? 503 : 200).end();
        return;
      }
      try {
        const headers = Object.fromEntries(
          ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]),
        );
        verified.push(new Webhook(secret).verify(Buffer.concat(chunks).toString('utf8'), headers));
        response.writeHead(200).end();
      } catch {
        response.writeHead(400).end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook-${crypto.randomUUID().slice(0, 6)}`;
});
afterAll(async () => {
  await browser.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const ADMIN = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** A call to the admin API, as a script of the operator's would make it. */
async function call(path: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(`${baseURL}${path}`, { method, headers: ADMIN, ...(body ? { body: JSON.stringify(body) } : {}) });
}

async function signedIn(): Promise<Page> {
  const context = await browser.newContext({ ...DEVICES.desktop, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.getByLabel('Admin token').fill(TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#webhooks-heading').waitFor();
  return page;
}

const sql = (command: string) => localSql(persistTo, command);

describe('the webhooks panel', () => {
  it('adds an endpoint, shows its secret once, sends a signed test and logs it', async () => {
    const page = await signedIn();
    const log = watch(page);
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByLabel('Description', { exact: true }).fill('CRM');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.locator('.secret code');
    await shown.waitFor();
    secret = (await shown.textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const row = page.locator('tr[data-endpoint]', { hasText: receiverUrl });
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Enabled');
    expect(await row.locator('td').nth(1).textContent()).toBe(
      'install, open, event, link.created, link.updated, link.deleted',
    );

    await row.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => page.getByText('Test delivered (200)').isVisible()).toBe(true);
    expect(verified).toHaveLength(1);

    await row.getByRole('button', { name: 'Delivery log' }).click();
    const attempt = page.locator('.attempts-table tbody tr').first();
    await attempt.waitFor();
    expect(await attempt.locator('td').nth(1).textContent()).toBe('test');
    expect(await attempt.locator('td').nth(4).textContent()).toBe('200');

    // A reload forgets the secret: it was shown once.
    await page.reload();
    await page.locator('tr[data-endpoint]', { hasText: receiverUrl }).waitFor();
    expect(await page.locator('.secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret.slice(6));
    expect(log.errors).toEqual([]);
    await page.context().close();
  });

  it('says when an endpoint was disabled after 3 days of failures, and enables it again', async () => {
    sql(`UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'failing' WHERE url = '${receiverUrl}'`);
    const page = await signedIn();
    const row = page.locator('tr[data-endpoint]', { hasText: receiverUrl });
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Disabled after 3 days of failures');
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Enabled');
    await page.context().close();
  });

  it('rotates the secret: the new one shown once, and the receiver still holding the old one verifies a test', async () => {
    const page = await signedIn();
    const row = page.locator('tr[data-endpoint]', { hasText: receiverUrl });
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = page.locator('.secret code');
    await shown.waitFor();
    expect(await shown.textContent()).not.toBe(secret);
    await expect.poll(() => page.getByText('The old secret also signs every delivery until').isVisible()).toBe(true);
    const before = verified.length;
    await row.getByRole('button', { name: 'Send test' }).click();
    await expect.poll(() => page.getByText('Test delivered (200)').isVisible()).toBe(true);
    expect(verified).toHaveLength(before + 1);
    await page.context().close();
  });

  it('says when an endpoint was disabled because its receiver answered 410 Gone', async () => {
    sql(`UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'gone' WHERE url = '${receiverUrl}'`);
    const page = await signedIn();
    const row = page.locator('tr[data-endpoint]', { hasText: receiverUrl });
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Disabled: the receiver answered 410 Gone');
    expect(await row.locator('td').nth(2).getAttribute('class')).toBe('error');
    await row.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Enabled');
    await page.context().close();
  });

  it('refuses to add the same endpoint URL twice, and says so', async () => {
    const page = await signedIn();
    await page.locator('tr[data-endpoint]', { hasText: receiverUrl }).waitFor();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => page.getByText('Another endpoint already has that URL.').isVisible()).toBe(true);
    expect(await page.locator('tr[data-endpoint]', { hasText: receiverUrl }).count()).toBe(1);
    await page.context().close();
  });

  it('shows a failing endpoint’s times in the operator’s zone, and its state once a resend is delivered, without a reload', async () => {
    const url = `${receiverUrl}/retry`;
    retryFails = true;
    const made = await call('/api/webhooks', 'POST', { url, events: ['link.created'] });
    expect(made.status).toBe(201);
    const { endpoint } = (await made.json()) as { endpoint: { id: string } };
    // A new link is a `link.created` message: refused twice (its first retry comes 5 s later), then due in minutes.
    expect((await call('/api/links', 'POST', { channel: `retry-${endpoint.id.slice(3, 9)}` })).status).toBe(201);
    const attempts = async () =>
      ((await (await call(`/api/webhooks/${endpoint.id}/attempts`)).json()) as { attempts: unknown[] }).attempts.length;
    await expect.poll(attempts, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    const failingSince = ((await (await call(`/api/webhooks/${endpoint.id}`)).json()) as { failingSince: string })
      .failingSince;

    const page = await signedIn();
    const log = watch(page);
    const row = page.locator(`tr[data-endpoint="${endpoint.id}"]`);
    const zone = (await page.locator('.zone').textContent()) ?? '';
    // The console's zone's wall clock, as the date fields' days are.
    const wall = new Intl.DateTimeFormat('sv-SE', {
      timeZone: zone,
      dateStyle: 'short',
      timeStyle: 'medium',
    }).format(new Date(failingSince));
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe(`Enabled (failing since ${wall})`);
    await row.getByRole('button', { name: 'Delivery log' }).click();
    const attempt = page.locator('.attempts-table tbody tr').first();
    await attempt.waitFor();
    expect(await page.locator('.attempts-table thead th').first().textContent()).toBe(`Time (${zone})`);
    expect(await attempt.locator('td').first().textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    retryFails = false;
    await attempt.getByRole('button', { name: 'Resend' }).click();
    // Delivered by the queue after the resend answered: the panel reads the endpoint again by itself.
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('Enabled');
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('1');
    expect(await row.locator('td').nth(4).textContent()).toBe('0');
    await expect.poll(() => page.locator('.attempts-table tbody tr').first().getAttribute('data-status')).toBe('200');
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
