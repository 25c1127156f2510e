/**
 * `COOKIELESS=on` (docs/operators.md) in real Chromium: a worker of its own, started with the
 * variable on, serves a page that sets no cookie, stores no id, calls no trace service and loads no
 * fingerprint, even once the browser's idle work has run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICES, hydrated, launch, marked } from './browser.ts';
import { freePort } from './global-setup.ts';

let browser: Browser;
let worker: ChildProcess;
let baseURL = '';
let persistTo = '';

async function waitUntilUp(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The cookieless worker did not start at ${url}`);
}

beforeAll(async () => {
  const port = await freePort();
  persistTo = mkdtempSync(join(tmpdir(), 'lander-cookieless-'));
  worker = spawn(
    'node_modules/.bin/wrangler',
    ['dev', '--port', String(port), '--ip', '127.0.0.1', '--local', '--persist-to', persistTo].concat([
      '--var',
      'COOKIELESS:on',
      '--show-interactive-dev-session=false',
    ]),
    { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: 'ignore', detached: true },
  );
  baseURL = `http://127.0.0.1:${port}`;
  await waitUntilUp(baseURL, Date.now() + 90_000);
  browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (worker?.pid) process.kill(-worker.pid, 'SIGTERM');
  rmSync(persistTo, { recursive: true, force: true });
});

describe('COOKIELESS=on', () => {
  it('sets no cookie, stores no id, and calls neither the trace service nor FingerprintJS', async () => {
    const context = await browser.newContext(DEVICES.iPhone);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${baseURL}/landing`);
    await hydrated(page);
    // The idle work ran: the identity would have been asked for in the same step as this probe.
    await marked(page, 'downloadProbed', 'true');
    expect(await context.cookies()).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect(requested.filter((url) => /\/api\/trace|start-identity|fp\.esm/.test(url))).toEqual([]);
    await context.close();
  });
});
