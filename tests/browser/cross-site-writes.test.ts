/**
 * Cross-site writes to the admin API in real Chromium (docs/security.md, "Cross-site writes"): an
 * operator signed in by Cloudflare Access browses another page, and that page tries to add a webhook
 * that would receive every install — a `text/plain` form, a `no-cors` fetch, from another port of
 * the same host (same site), from another host (cross site), from a `data:` page. None is made.
 *
 * A worker of its own runs with Access set to a local stand-in team (http://127.0.0.1:<port>, which
 * development takes, worker/sign-in/access-jwt.ts) serving a key made here. As Access's edge does for
 * a browser holding its cookie, every request the browser makes to the worker carries the signed
 * assertion, whichever page made it: the worst case, an Access cookie with `SameSite=None`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../scripts/lib/d1.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';
import { accessKey } from '../fixtures/access-key.ts';
import { launch } from './browser.ts';
import { freePort } from './global-setup.ts';

const AUDIENCE = 'lander-browser-test';

let browser: Browser;
let worker: ChildProcess;
let servers: Server[] = [];
let persistTo = '';
let workerURL = '';
/** The pages of another origin: the same host on another port (same site), and `localhost` (another site). */
let sameSite = '';
let crossSite = '';
let assertion = '';

/** Serves `answer(path)` on 127.0.0.1 at a free port: its port. */
async function serve(answer: (path: string) => { type: string; body: string }): Promise<number> {
  const port = await freePort();
  const server = createServer((req, res) => {
    const { type, body } = answer(new URL(req.url ?? '/', 'http://x').pathname);
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return port;
}

async function waitUntilUp(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The Access worker did not start at ${url}`);
}

/** The webhook URL the attacking pages try to add: it would receive every install. */
const STOLEN = 'http://127.0.0.1:9/steal';

/**
 * An attacking page: a form posting `text/plain` whose one field makes the body JSON
 * (`{"url":"…","x":"="}`), submitted on load; and a `no-cors` fetch of the same.
 */
function attackPage(target: string): string {
  const name = `{"url":"${STOLEN}","x":"`;
  return `<!doctype html><body>
<form id="f" method="POST" action="${target}/api/webhooks" enctype="text/plain">
<input type="hidden" name='${name}' value='"}'></form>
<script>
  fetch(${JSON.stringify(`${target}/api/webhooks`)}, { method: 'POST', mode: 'no-cors', credentials: 'include',
    body: ${JSON.stringify(JSON.stringify({ url: STOLEN }))} })
    .finally(() => document.getElementById('f').submit());
</script></body>`;
}

beforeAll(async () => {
  const key = await accessKey('k1');
  const teamPort = await serve(() => ({ type: 'application/json', body: JSON.stringify({ keys: [key.jwk] }) }));
  const team = `http://127.0.0.1:${teamPort}`;
  assertion = await key.sign({ aud: [AUDIENCE], iss: team, exp: Math.floor(Date.now() / 1000) + 3600 });
  const port = await freePort();
  workerURL = `http://127.0.0.1:${port}`;
  const attackerPort = await serve(() => ({ type: 'text/html', body: attackPage(workerURL) }));
  sameSite = `http://127.0.0.1:${attackerPort}`;
  crossSite = `http://localhost:${attackerPort}`;

  persistTo = mkdtempSync(join(tmpdir(), 'lander-access-'));
  applyMigrations({ local: true, persistTo });
  worker = spawn(
    'node_modules/.bin/wrangler',
    ['dev', '--port', String(port), '--ip', '127.0.0.1', '--local', '--persist-to', persistTo].concat([
      '--var',
      `ACCESS_AUD:${AUDIENCE}`,
      '--var',
      `ACCESS_TEAM_DOMAIN:${team}`,
      '--show-interactive-dev-session=false',
    ]),
    { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: 'ignore', detached: true },
  );
  await waitUntilUp(workerURL, Date.now() + 90_000);
  browser = await launch();
}, 150_000);

afterAll(async () => {
  await browser?.close();
  if (worker?.pid) process.kill(-worker.pid, 'SIGTERM');
  for (const server of servers) server.close();
  servers = [];
  rmSync(persistTo, { recursive: true, force: true });
});

/**
 * A browser of an operator Access signed in: every request to the worker carries the assertion.
 * `sent` counts the writes the browser made to the webhooks API; `seen` holds the statuses the page
 * could see (a `no-cors` answer the browser keeps from it: the worker's resource policy).
 */
async function signedInBrowser(): Promise<{ context: BrowserContext; page: Page; sent: string[]; seen: number[] }> {
  const context = await browser.newContext();
  const sent: string[] = [];
  const seen: number[] = [];
  await context.route(`${workerURL}/**`, (route) =>
    route.continue({ headers: { ...route.request().headers(), 'cf-access-jwt-assertion': assertion } }),
  );
  const isWrite = (url: string, method: string) => url === `${workerURL}/api/webhooks` && method === 'POST';
  context.on('request', (request) => {
    if (isWrite(request.url(), request.method())) sent.push(request.resourceType());
  });
  context.on('response', (response) => {
    if (isWrite(response.url(), response.request().method())) seen.push(response.status());
  });
  return { context, page: await context.newPage(), sent, seen };
}

/** The webhook endpoints' URLs, as the admin API lists them to the development token. */
async function webhookUrls(): Promise<string[]> {
  const res = await fetch(`${workerURL}/api/webhooks`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { endpoints: { url: string }[] }).endpoints.map((endpoint) => endpoint.url);
}

describe('an operator signed in by Cloudflare Access', () => {
  it('writes from the console’s own origin with no token: the sign-in the attacks below would ride on', async () => {
    const { context, page } = await signedInBrowser();
    await page.goto(`${workerURL}/api/health`);
    const own = `http://127.0.0.1:9/own-${crypto.randomUUID().slice(0, 8)}`;
    const status = await page.evaluate(
      async (url) =>
        (
          await fetch('/api/webhooks', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ url }),
          })
        ).status,
      own,
    );
    expect(status).toBe(201);
    expect(await webhookUrls()).toContain(own);
    await context.close();
  });

  it.each([
    ['the same host on another port (same site)', () => sameSite],
    ['another host (cross site)', () => crossSite],
  ])('visiting a page on %s, has no webhook added by its form or its no-cors fetch', async (_, origin) => {
    const before = await webhookUrls();
    const { context, page, sent, seen } = await signedInBrowser();
    await page.goto(`${origin()}/attack`);
    // The form's navigation ends on the worker's refusal, after the fetch was sent.
    await page.waitForURL(`${workerURL}/api/webhooks`);
    expect(sent.sort()).toEqual(['document', 'fetch']);
    expect(seen).toEqual([403]);
    expect(await page.textContent('body')).toMatch(/"error":"(Sec-Fetch-Site|Origin): /);
    expect(await webhookUrls()).toEqual(before);
    await context.close();
  });

  it('opening a data: page, has no webhook added by its form', async () => {
    const before = await webhookUrls();
    const { context, page, sent, seen } = await signedInBrowser();
    await page.goto(`data:text/html,${encodeURIComponent(attackPage(workerURL))}`);
    await page.waitForURL(`${workerURL}/api/webhooks`);
    expect(sent).toContain('document');
    expect(seen).toEqual([403]);
    expect(await webhookUrls()).toEqual(before);
    await context.close();
  });
});
