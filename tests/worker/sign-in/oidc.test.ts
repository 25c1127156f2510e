/**
 * Sign-in with an OpenID Connect provider (docs/operators.md#openid-connect), through the real worker:
 * the login redirect (PKCE S256, state, nonce), the callback's code exchange and ID token checks, the
 * session cookie the admin API then takes, refusals that name their reason and keep nothing, and
 * logout. The provider is a test's own (oidc-provider.ts), answered by a mock of `fetch`.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromBase64Url } from '../../../shared/base64url.ts';
import { fetchWorker } from '../helpers.ts';
import { CLIENT_ID, oidcProvider } from '../oidc-provider.ts';

const ORIGIN = 'https://lander.test';

afterEach(() => {
  vi.restoreAllMocks();
});

/** `name=value` of each cookie a response sets, with its attributes. */
function cookiesOf(res: Response): Map<string, { value: string; attributes: string }> {
  const cookies = new Map<string, { value: string; attributes: string }>();
  for (const line of res.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    cookies.set(pair.slice(0, at), { value: pair.slice(at + 1), attributes: attributes.join(';') });
  }
  return cookies;
}

/** A provider, and the worker configured for it (`extra` laid over), with the calls a browser makes. */
async function setUp(extra: Partial<Env> = {}) {
  const provider = await oidcProvider();
  const bindings: Partial<Env> = { ...env, ...provider.bindings, ...extra };
  const call = (path: string, init: RequestInit = {}) =>
    fetchWorker(`${ORIGIN}${path}`, { redirect: 'manual', ...init }, bindings);
  const production = bindings.LANDER_ENV === 'production';
  const signInCookie = production ? '__Host-lander-sign-in' : 'lander-sign-in';
  const sessionCookie = production ? '__Host-lander-session' : 'lander-session';

  /** `GET /auth/login`, then the person approves at the provider: the callback URL and the sign-in cookie. */
  async function startSignIn(claims: Record<string, unknown> = {}, back = '/admin') {
    const login = await call(`/auth/login?return=${encodeURIComponent(back)}`);
    expect(login.status).toBe(302);
    const cookie = cookiesOf(login).get(signInCookie);
    if (!cookie) throw new Error('no sign-in cookie');
    const callback = provider.approve(login.headers.get('location') ?? '', claims);
    return { login, callback, cookie: `${signInCookie}=${cookie.value}` };
  }

  /** The whole sign-in: the callback's answer. */
  async function signIn(claims: Record<string, unknown> = {}, back = '/admin') {
    const { callback, cookie } = await startSignIn(claims, back);
    return call(`${callback.pathname}${callback.search}`, { headers: { cookie, accept: 'application/json' } });
  }

  const stats = (cookie: string) => call('/api/stats', { headers: { cookie } });
  return { provider, call, startSignIn, signIn, stats, signInCookie, sessionCookie };
}

describe('GET /auth/login', () => {
  it('redirects to the provider with PKCE S256, state and nonce, kept in a signed HttpOnly cookie', async () => {
    const { provider, startSignIn } = await setUp();
    const { login, cookie } = await startSignIn();
    const to = new URL(login.headers.get('location') ?? '');
    expect(`${to.origin}${to.pathname}`).toBe(provider.metadata.authorization_endpoint);
    const query = Object.fromEntries(to.searchParams);
    expect(query).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}/auth/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    expect(query.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.state).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(query.nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const attributes = cookiesOf(login).get('lander-sign-in')?.attributes ?? '';
    expect(attributes).toMatch(/HttpOnly/);
    expect(attributes).toMatch(/SameSite=Lax/);
    expect(attributes).toMatch(/Secure/);
    expect(attributes).toMatch(/Max-Age=600/);
    // The cookie names neither the state nor the nonce in a form another provider's sign-in would take.
    expect(cookie).not.toContain(query.state);
  });

  it('answers 404 naming the settings when OpenID Connect is not configured', async () => {
    const res = await fetchWorker(`${ORIGIN}/auth/login`, {}, env);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.stringContaining('OIDC_ISSUER') });
  });

  it('answers 503 in production without SESSION_SECRET, redirecting nowhere', async () => {
    const { call } = await setUp({ LANDER_ENV: 'production', ADMIN_TOKEN: 'prod-token' });
    const res = await call('/auth/login');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: expect.stringContaining('SESSION_SECRET') });
  });
});

describe('GET /auth/callback', () => {
  it('exchanges the code, sets a session the admin API takes, and returns to the path asked for', async () => {
    const { signIn, stats, sessionCookie, provider } = await setUp();
    const res = await signIn({}, '/admin?from=2026-11-01&to=2026-11-07');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/admin?from=2026-11-01&to=2026-11-07');
    const session = cookiesOf(res).get(sessionCookie);
    expect(session?.attributes).toMatch(/HttpOnly/);
    expect(session?.attributes).toMatch(/SameSite=Lax/);
    expect(Number(/Max-Age=(\d+)/.exec(session?.attributes ?? '')?.[1])).toBeLessThanOrEqual(12 * 3600);
    // The sign-in under way is over: its cookie is cleared.
    expect(cookiesOf(res).get('lander-sign-in')?.attributes).toMatch(/Max-Age=0/);
    // The token endpoint got the client's verifier, whose S256 the provider checked against the challenge.
    expect(provider.tokenCalls[0]?.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stats(`${sessionCookie}=${session?.value}`)).status).toBe(200);
  });

  it('keeps only the subject, the verified email and the expiry in the session', async () => {
    const { signIn, sessionCookie } = await setUp();
    const verified = cookiesOf(await signIn({ name: 'Ops Person', picture: 'x' })).get(sessionCookie);
    const payload = (value = '') => JSON.parse(new TextDecoder().decode(fromBase64Url(value.split('.')[0] ?? '')));
    expect(Object.keys(payload(verified?.value)).sort()).toEqual(['email', 'exp', 'sub']);
    expect(payload(verified?.value)).toMatchObject({ sub: 'user-1234', email: 'ops@example.com' });
    const unverified = cookiesOf(await signIn({ email_verified: false })).get(sessionCookie);
    expect(Object.keys(payload(unverified?.value)).sort()).toEqual(['exp', 'sub']);
  });

  it('returns only to a path of this origin: anything else goes to /admin', async () => {
    const { signIn } = await setUp();
    for (const back of ['//evil.example/admin', 'https://evil.example/', '/\\evil.example', 'admin']) {
      expect((await signIn({}, back)).headers.get('location')).toBe('/admin');
    }
  });

  const refusals: [string, Record<string, unknown>, number, RegExp][] = [
    ['another issuer', { iss: 'https://evil.example' }, 401, /^Sign-in refused: iss: /],
    ['another audience', { aud: 'someone-else' }, 401, /^Sign-in refused: aud: /],
    ['another nonce', { nonce: 'not-the-one-sent' }, 401, /^Sign-in refused: nonce: /],
    [
      'an expired ID token',
      { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 },
      401,
      /^Sign-in refused: exp: /,
    ],
  ];
  for (const [what, claims, status, reason] of refusals) {
    it(`refuses an ID token with ${what}, naming the claim, and keeps no session`, async () => {
      const { signIn, sessionCookie } = await setUp();
      const res = await signIn(claims);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual({ error: expect.stringMatching(reason) });
      expect(cookiesOf(res).has(sessionCookie)).toBe(false);
    });
  }

  it('refuses an ID token not signed with the provider’s published key', async () => {
    const { signIn, provider, sessionCookie } = await setUp();
    await provider.forge();
    const res = await signIn();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Sign-in refused: signature: /) });
    expect(cookiesOf(res).has(sessionCookie)).toBe(false);
  });

  it('refuses a callback whose state was changed, without asking the provider for tokens', async () => {
    const { startSignIn, call, provider } = await setUp();
    const { callback, cookie } = await startSignIn();
    callback.searchParams.set('state', 'tampered-state');
    const res = await call(`${callback.pathname}${callback.search}`, { headers: { cookie } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/^Sign-in refused: state: /) });
    expect(provider.tokenCalls).toEqual([]);
  });

  it('refuses a callback whose sign-in cookie was altered or is missing', async () => {
    const { startSignIn, call } = await setUp();
    const { callback, cookie } = await startSignIn();
    const path = `${callback.pathname}${callback.search}`;
    const altered = await call(path, { headers: { cookie: `${cookie.slice(0, -2)}xx` } });
    expect(altered.status).toBe(400);
    expect(await altered.json()).toEqual({ error: expect.stringContaining('altered') });
    const missing = await call(path);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: expect.stringContaining('no sign-in was started') });
  });

  it('says the provider’s own error, as a page for a browser', async () => {
    const { startSignIn, call } = await setUp();
    const { callback, cookie } = await startSignIn();
    const back = new URL(callback);
    back.searchParams.delete('code');
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'The person said no');
    const res = await call(`${back.pathname}${back.search}`, { headers: { cookie, accept: 'text/html' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('access_denied (The person said no)');
  });

  it('refuses a code used twice', async () => {
    const { startSignIn, call } = await setUp();
    const { callback, cookie } = await startSignIn();
    const path = `${callback.pathname}${callback.search}`;
    expect((await call(path, { headers: { cookie } })).status).toBe(302);
    const again = await call(path, { headers: { cookie } });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: expect.stringContaining('invalid_grant') });
  });
});

describe('the session cookie', () => {
  it('is refused by the admin API once altered', async () => {
    const { signIn, stats, sessionCookie } = await setUp();
    const value = cookiesOf(await signIn()).get(sessionCookie)?.value ?? '';
    const [body = '', mac] = value.split('.');
    const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body)));
    const forged = btoa(JSON.stringify({ ...payload, email: 'boss@example.com' }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const res = await stats(`${sessionCookie}=${forged}.${mac}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ signIn: '/auth/login' });
  });

  it('is named __Host-… and Secure in production, where OIDC alone makes the admin API answer 401, not 503', async () => {
    const { signIn, stats, call, sessionCookie } = await setUp({
      LANDER_ENV: 'production',
      SESSION_SECRET: 'prod-session-secret',
    });
    expect(sessionCookie).toBe('__Host-lander-session');
    const res = await signIn();
    const session = cookiesOf(res).get(sessionCookie);
    expect(session?.attributes).toMatch(/Secure/);
    expect(session?.attributes).toMatch(/Path=\//);
    expect((await stats(`${sessionCookie}=${session?.value}`)).status).toBe(200);
    // The same cookie without its prefix is not the session.
    expect((await stats(`lander-session=${session?.value}`)).status).toBe(401);
    expect((await call('/api/stats')).status).toBe(401);
  });

  it('is cleared by POST /auth/logout; another site cannot sign the operator out', async () => {
    const { signIn, call, sessionCookie } = await setUp();
    const value = cookiesOf(await signIn()).get(sessionCookie)?.value;
    const cookie = `${sessionCookie}=${value}`;
    const crossSite = await call('/auth/logout', {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(cookiesOf(crossSite).has(sessionCookie)).toBe(false);
    const res = await call('/auth/logout', { method: 'POST', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(204);
    expect(cookiesOf(res).get(sessionCookie)).toMatchObject({
      value: '',
      attributes: expect.stringMatching(/Max-Age=0/),
    });
  });
});
