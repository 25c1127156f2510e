/**
 * Signing in to the console with an OpenID Connect provider in real Chromium (docs/operators.md#openid-connect):
 * the console, refused by the admin API, offers "Sign in with your organisation"; the provider's page
 * asks the person to approve; the worker checks the code and the ID token and the console opens,
 * signed in by an HttpOnly session cookie alone. Logout ends it. A viewer's console leaves out the
 * panels a viewer's scopes cannot read (`GET /api/me`), and its "Sign out" ends the session.
 *
 * A worker of its own runs with `OIDC_ISSUER` at a provider served here on 127.0.0.1 over http (which
 * development takes, worker/settings.ts): discovery, its key set, an approval page and a token endpoint
 * that checks the client's secret, the redirect URI and the PKCE verifier (S256) as a real one does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../scripts/lib/d1.ts';
import { accessKey } from '../fixtures/access-key.ts';
import { hydrated, launch } from './browser.ts';
import { freePort } from './global-setup.ts';

const CLIENT_ID = 'lander-browser-test';
const CLIENT_SECRET = 'browser-test-secret';

let browser: Browser;
let worker: ChildProcess;
let provider: Server;
let persistTo = '';
let workerURL = '';
/** What the token endpoint was asked, in order. */
const tokenRequests: URLSearchParams[] = [];

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
  });

/** The provider: discovery, keys, an approval page, and a token endpoint that checks what a real one does. */
async function startProvider(): Promise<string> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const key = await accessKey('k1');
  const grants = new Map<string, { challenge: string; redirectUri: string; nonce: string }>();
  const json = (value: unknown) => ({ type: 'application/json', body: JSON.stringify(value), status: 200 });
  async function answer(req: IncomingMessage) {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json({ keys: [key.jwk] });
    if (url.pathname === '/authorize') {
      const code = randomUUID();
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri') ?? '';
      grants.set(code, { challenge: q.get('code_challenge') ?? '', redirectUri, nonce: q.get('nonce') ?? '' });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      const page = `<!doctype html><title>Provider</title><h1>Sign in to Lander?</h1><a id="approve" href="${back.href.replace(/&/g, '&amp;')}">Approve</a>`;
      return { type: 'text/html', body: page, status: 200 };
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await read(req));
      tokenRequests.push(form);
      const [user = '', password = ''] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')
        .map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      const grant = grants.get(form.get('code') ?? '');
      grants.delete(form.get('code') ?? '');
      const verifier = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (user !== CLIENT_ID || password !== CLIENT_SECRET)
        return { ...json({ error: 'invalid_client' }), status: 401 };
      if (!grant || grant.redirectUri !== form.get('redirect_uri') || grant.challenge !== verifier) {
        return { ...json({ error: 'invalid_grant' }), status: 400 };
      }
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: issuer, aud: CLIENT_ID, sub: 'u-1', email: 'ops@example.com', email_verified: true };
      const idToken = await key.sign({ ...claims, nonce: grant.nonce, iat: now, exp: now + 300 });
      return json({ access_token: 'opaque', token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    return { type: 'text/plain', body: 'not found', status: 404 };
  }
  provider = createServer((req, res) => {
    void answer(req).then(({ type, body, status }) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => provider.listen(port, '127.0.0.1', resolve));
  return issuer;
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
  throw new Error(`The OpenID Connect worker did not start at ${url}`);
}

beforeAll(async () => {
  const issuer = await startProvider();
  const port = await freePort();
  workerURL = `http://127.0.0.1:${port}`;
  persistTo = mkdtempSync(join(tmpdir(), 'lander-oidc-'));
  applyMigrations({ local: true, persistTo });
  const vars = { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET };
  worker = spawn(
    'node_modules/.bin/wrangler',
    ['dev', '--port', String(port), '--ip', '127.0.0.1', '--local', '--persist-to', persistTo]
      .concat(Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]))
      .concat(['--show-interactive-dev-session=false']),
    { env: { ...process.env, WRANGLER_SEND_METRICS: 'false' }, stdio: 'ignore', detached: true },
  );
  await waitUntilUp(workerURL, Date.now() + 90_000);
  browser = await launch();
}, 150_000);

afterAll(async () => {
  await browser?.close();
  if (worker?.pid) process.kill(-worker.pid, 'SIGTERM');
  provider?.close();
  rmSync(persistTo, { recursive: true, force: true });
});

describe('the console with an OpenID Connect provider', () => {
  it('signs in through the provider and back, then signs out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${workerURL}/admin?from=2026-11-01&to=2026-11-07`);
    await hydrated(page);
    const link = page.locator('[data-sign-in="provider"]');
    await expect.poll(() => link.textContent()).toBe('Sign in with your organisation');
    await link.click();
    await page.waitForURL(/\/authorize\?/);
    const asked = new URL(page.url()).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('redirect_uri')).toBe(`${workerURL}/auth/callback`);
    await page.click('#approve');
    // Back where the operator was, signed in.
    await page.waitForURL(`${workerURL}/admin?from=2026-11-01&to=2026-11-07`);
    await expect.poll(() => page.locator('article.admin').getAttribute('data-session')).toBe('signed-in');
    expect(tokenRequests.at(-1)?.get('code_verifier')).toMatch(/^[\w-]{43}$/);
    const session = (await context.cookies()).find((cookie) => cookie.name === 'lander-session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    // The session signs the console's calls: no token is kept in the tab.
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    const status = await page.evaluate(async () => (await fetch('/auth/logout', { method: 'POST' })).status);
    expect(status).toBe(204);
    expect((await context.cookies()).some((cookie) => cookie.name === 'lander-session')).toBe(false);
    await page.reload();
    await expect.poll(() => page.locator('article.admin').getAttribute('data-session')).toBe('signed-out');
    await context.close();
  });

  it('a viewer sees no Team, Audit or Webhooks panel, and signs out with the console’s Sign out', async () => {
    // The development token makes an owner, then the provider's person a viewer.
    for (const [subject, role] of [
      ['boss@example.com', 'owner'],
      ['ops@example.com', 'viewer'],
    ]) {
      const res = await fetch(`${workerURL}/api/members/${subject}`, {
        method: 'PUT',
        headers: { authorization: 'Bearer lander-dev-admin', 'content-type': 'application/json' },
        body: JSON.stringify({ role }),
      });
      expect(res.status, await res.text()).toBeLessThan(300);
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${workerURL}/admin`);
    await hydrated(page);
    await page.locator('[data-sign-in="provider"]').click();
    await page.click('#approve');
    await page.waitForURL(`${workerURL}/admin`);
    const admin = page.locator('article.admin');
    await expect.poll(() => admin.getAttribute('data-session')).toBe('signed-in');
    await expect.poll(() => page.locator('.links-panel').count()).toBe(1);
    expect(await page.locator('.team-panel').count()).toBe(0);
    expect(await page.locator('.audit-panel').count()).toBe(0);
    expect(await page.locator('.webhooks-panel').count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => admin.getAttribute('data-session')).toBe('signed-out');
    expect((await context.cookies()).some((cookie) => cookie.name === 'lander-session')).toBe(false);
    // The provider is offered again.
    await expect.poll(() => page.locator('[data-sign-in="provider"]').count()).toBe(1);
    await context.close();
  });

  it('shows a refused callback’s reason as a page, and keeps no session', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${workerURL}/auth/callback?code=x&state=y`);
    expect(res?.status()).toBe(400);
    expect(await page.textContent('body')).toContain('no sign-in was started in this browser');
    expect((await context.cookies()).some((cookie) => cookie.name === 'lander-session')).toBe(false);
    await context.close();
  });
});
