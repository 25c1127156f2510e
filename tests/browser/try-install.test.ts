/**
 * A test install end to end against the started worker (docs/attribution.md, "Test devices"):
 * `npm run try-install` prints a link and its QR code; a phone (Chromium) taps it; the app, as a
 * test device, launches with the clipboard the tap wrote; the script prints the answer and why. The
 * console's Test installs panel then shows it, on a desktop and a phone, in English and Chinese.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  APP_ID,
  clickBody,
  installBody,
  issuedClickId,
  PHONES,
  registerTestDevice,
  type Send,
} from '../fixtures/fake-app.ts';
import { decodeTerminalQr } from '../fixtures/qr-image.ts';
import { DEVICES, hydrated, launch, marked, screenshotOf, watch } from './browser.ts';

const baseURL = inject('baseURL');
const TOKEN = 'lander-dev-admin';
const APP_HEADERS = { 'content-type': 'application/json', 'user-agent': 'PebbleNotes/2.4 CFNetwork/1490.0.4' };
const run = promisify(execFile);

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});

/** `npm run try-install` against the started worker, as a child process with its output gathered. */
function tryInstall(args: string[]): { child: ChildProcess; output: () => string; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['scripts/try-install.ts', '--base', baseURL, ...args], {
    env: { ...process.env, ADMIN_TOKEN: '', LANDER_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, output: () => output, exit };
}

/** Taps the landing button of `url` on an iPhone: the carrier link the tap copied. */
async function tapOnPhone(url: string): Promise<string> {
  const context = await browser.newContext(DEVICES.iPhone);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const page = await context.newPage();
  // The phone stays on the page where it would leave for the app or the store.
  await page.addInitScript(() => {
    window.addEventListener('click', (event) => {
      if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
    });
  });
  const beacon = page.waitForRequest((request) => request.url().endsWith('/api/a/click'));
  await page.goto(url);
  await hydrated(page);
  await marked(page, 'openApp', 'ready');
  await page.tap('.button-landing');
  await beacon;
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  await context.close();
  return copied;
}

/** POSTs `body` as JSON to the started worker. */
const post: Send = (path, body, headers) =>
  fetch(`${baseURL}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });

function testCall(path: string, body: unknown): Promise<Response> {
  return fetch(`${baseURL}${path}`, { method: 'POST', body: JSON.stringify(body), headers: APP_HEADERS });
}

describe('npm run try-install', () => {
  it('registers the phone, prints a link and its QR code, waits for the tap and the test install, then prints the answer and why', async () => {
    const installId = `try-${crypto.randomUUID()}`;
    const cli = tryInstall(['--timeout', '90', '--app', APP_ID, '--install-id', installId]);
    await expect.poll(cli.output, { timeout: 30_000 }).toContain('Waiting for the tap');
    expect(cli.output()).toMatch(/Test device \S{8} \(com\.pebble\.notes\) registered\./);
    const shortUrl = /(http\S+\/s\/[a-z0-9-]+)\n/.exec(cli.output())?.[1] ?? '';
    // The code printed in the terminal scans, as a phone's camera would, to the link printed above it.
    expect(decodeTerminalQr(cli.output())).toBe(shortUrl);

    const copied = await tapOnPhone(shortUrl);
    await expect.poll(cli.output, { timeout: 30_000 }).toContain('Waiting for the test install');
    const install = { ...installBody(PHONES.iPhone15, installId, { clipboard: copied }), test: true };
    const res = await testCall('/api/a/install', install);
    expect(await res.json()).toMatchObject({ matched: true, method: 'clipboard', data: { channel: 'try-install' } });

    expect(await cli.exit).toBe(0);
    const output = cli.output();
    expect(output).toContain('Tapped (open)');
    expect(output).toMatch(/Answer: matched by clipboard, confidence 100, data \{"channel":"try-install"\}/);
    expect(output).toContain('  - Clipboard: valid, answered');
    expect(output).not.toContain(install.installId);
  });

  it('says so and exits 1 when no install comes in time, having said how to register the phone', async () => {
    const cli = tryInstall(['--timeout', '2']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toContain('run this with --app and --install-id');
    expect(cli.output()).toContain('no test install within 2 s (the link was not tapped)');
  });

  it('exits 2 when an install id comes without its app', async () => {
    const failed = await run(
      process.execPath,
      ['scripts/try-install.ts', '--base', baseURL, '--install-id', 'x1234567'],
      {
        env: { ...process.env, ADMIN_TOKEN: '' },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--install-id needs --app') });
  });

  it('exits 2 with the API’s message when the token is refused', async () => {
    const failed = await run(process.execPath, ['scripts/try-install.ts', '--base', baseURL], {
      env: { ...process.env, ADMIN_TOKEN: 'wrong' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('401: Sign in') });
  });
});

/** Signs in to the console in a fresh tab of `profile` in `locale`, and waits for the Test installs panel. */
async function consoleIn(profile: BrowserContextOptions, locale: string): Promise<Page> {
  const context = await browser.newContext({ ...profile, locale });
  const page = await context.newPage();
  await page.goto(`${baseURL}/admin`);
  await hydrated(page);
  await page.locator('input[name="token"]').fill(TOKEN);
  await page.locator('.sign-in button[type="submit"]').click();
  await page.locator('[data-test-install]').first().waitFor();
  return page;
}

describe('the Test installs panel', () => {
  let wanted = '';
  beforeAll(async () => {
    // A second test device where two people with its look tapped: not matched (ambiguous), and why.
    // A time zone no other test uses, so only these two taps look like it.
    const phone = { ...PHONES.iPhone15, tz: 'Pacific/Chatham' };
    const headers = {
      'content-type': 'application/json',
      'user-agent': phone.web.agent,
      'cf-connecting-ip': '203.0.113.77',
    };
    for (const visitorId of ['ann', 'bob']) {
      const body = JSON.stringify(clickBody(phone, { visitorId }));
      expect((await fetch(`${baseURL}/api/a/click`, { method: 'POST', body, headers })).status).toBe(204);
    }
    // And a test device that came by a short link's carrier: matched, with the campaign.
    const created = await fetch(`${baseURL}/api/links`, {
      method: 'POST',
      body: JSON.stringify({ channel: 'panel-demo', inviter: 'Ann Lee' }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    });
    const token = new URL(((await created.json()) as { url: string }).url).searchParams.get('d') ?? '';
    const carried = { clipboard: `${baseURL}/i/${await issuedClickId((path) => fetch(`${baseURL}${path}`))}.${token}` };
    const galaxy = `panel-${crypto.randomUUID()}`;
    await registerTestDevice(post, galaxy);
    const matched = await testCall('/api/a/install', { ...installBody(PHONES.galaxyS23, galaxy, carried), test: true });
    expect(matched.status).toBe(200);
    wanted = `panel-${crypto.randomUUID()}`;
    await registerTestDevice(post, wanted);
    const res = await fetch(`${baseURL}/api/a/install`, {
      method: 'POST',
      body: JSON.stringify({ ...installBody(phone, wanted), test: true }),
      headers: { ...APP_HEADERS, 'cf-connecting-ip': '203.0.113.78' },
    });
    expect(await res.json()).toMatchObject({ matched: false, reason: 'ambiguous' });
  });

  it.each([
    ['desktop', DEVICES.desktop, 'en'],
    ['phone', DEVICES.iPhone, 'en'],
    ['desktop', DEVICES.desktop, 'zh-CN'],
    ['phone', DEVICES.iPhone, 'zh-CN'],
  ] as const)('shows the newest test answers first with why, on a %s in %s', async (name, profile, locale) => {
    const page = await consoleIn(profile, locale);
    const log = watch(page);
    const entries = page.locator('[data-test-install]');
    const ids = await entries.evaluateAll((items) =>
      items.map((item) => Number(item.getAttribute('data-test-install'))),
    );
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const panel = page.locator('.test-installs');
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain(locale === 'en' ? 'Clipboard: valid, answered' : '剪贴板：有效，已采用');
    expect(text).toContain('channel=panel-demo');
    expect(text).toContain(locale === 'en' ? 'Not matched' : '未匹配');
    expect(text).not.toContain(wanted);
    const right = await panel.evaluate((box) => box.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual((profile.viewport?.width ?? 0) + 0.5);
    if (locale === 'en' && name === 'desktop') {
      // Any one install, looked up by its app and id: the answer and why.
      await page.getByLabel('App (package or bundle id)', { exact: true }).fill('com.pebble.notes');
      await page.getByLabel('Install id', { exact: true }).fill(wanted);
      await page.getByRole('button', { name: 'Why this answer?' }).click();
      const found = page.locator('.lookup-result');
      await found.waitFor();
      expect(await found.textContent()).toContain('Not matched: ambiguous');
      expect(await found.textContent()).toContain('2 taps by 2 people on this network');
      // A phone registered in the panel's form: its test call is then answered as a test.
      const phone = `console-${crypto.randomUUID()}`;
      const form = page.getByRole('form', { name: 'Test devices' });
      await form.getByLabel('Test device’s app').fill('com.pebble.notes');
      await form.getByLabel('Test device’s install id').fill(phone);
      await form.getByLabel('Name (optional)').fill('QA iPhone');
      await form.getByRole('button', { name: 'Register' }).click();
      await page.getByRole('status').filter({ hasText: 'Registered: device' }).waitFor();
      // Listed with its name, among the devices other tests registered.
      await page.locator('[data-test-device]').filter({ hasText: 'QA iPhone' }).first().waitFor();
      const tested = await testCall('/api/a/install', { ...installBody(PHONES.iPhone15, phone), test: true });
      expect(await tested.json()).toHaveProperty('explain');
    }
    mkdirSync('docs/screenshots', { recursive: true });
    await screenshotOf(panel, `console-test-installs-${name}-${locale}`);
    expect(log.errors).toEqual([]);
    await page.context().close();
  });
});
