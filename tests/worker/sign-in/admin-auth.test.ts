/**
 * Who may call the admin API (docs/operators.md): the admin token, compared in constant time, or a
 * Cloudflare Access sign-in; 401 for anyone else, 503 where production has neither configured.
 * The Access tests sign their own JWTs with a key of their own and answer the certs fetch (access-team.ts).
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toBase64Url } from '../../../shared/base64url.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { ACCESS_AUD as AUD, accessKey, accessTeam } from '../access-team.ts';
import { fetchWorker } from '../helpers.ts';

const STATS = 'https://lander.test/api/stats';

function callStats(headers: Record<string, string>, bindings: Partial<Env> = {}): Promise<Response> {
  return Promise.resolve(fetchWorker(STATS, { headers }, { ...env, ...bindings }));
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the admin token', () => {
  it('is required: without one the API answers 401 and says how to sign in', async () => {
    const res = await callStats({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(await res.json()).toEqual({ error: expect.stringContaining('Bearer') });
  });

  it('refuses a wrong token with 401', async () => {
    expect((await callStats(bearer('lander-dev-admim'))).status).toBe(401);
  });

  it('is the built-in development token in development', async () => {
    expect((await callStats(bearer(DEV_ADMIN_TOKEN))).status).toBe(200);
  });

  it('is the ADMIN_TOKEN secret, in place of the built-in one, once set', async () => {
    const bindings = { ADMIN_TOKEN: 'a-long-secret-token' };
    expect((await callStats(bearer('a-long-secret-token'), bindings)).status).toBe(200);
    expect((await callStats(bearer(DEV_ADMIN_TOKEN), bindings)).status).toBe(401);
  });

  it('is compared with the runtime’s constant-time comparison', async () => {
    // workerd's own extension of SubtleCrypto: the tests' DOM types do not know it.
    const subtle = crypto.subtle as unknown as { timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean };
    const compare = vi.spyOn(subtle, 'timingSafeEqual');
    await callStats(bearer('wrong'));
    expect(compare).toHaveBeenCalledTimes(1);
  });

  it('makes production answer 503 "not configured" when the secret is missing', async () => {
    const res = await callStats(bearer(DEV_ADMIN_TOKEN), { LANDER_ENV: 'production' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: expect.stringContaining('not configured') });
  });

  it('is never the development token in production, even when set as the secret', async () => {
    const res = await callStats(bearer(DEV_ADMIN_TOKEN), { LANDER_ENV: 'production', ADMIN_TOKEN: DEV_ADMIN_TOKEN });
    expect(res.status).toBe(503);
  });

  it('lets production in with its own secret', async () => {
    const bindings = { LANDER_ENV: 'production', ADMIN_TOKEN: 'prod-secret-token' };
    expect((await callStats(bearer('prod-secret-token'), bindings)).status).toBe(200);
  });

  it('marks every admin answer as not to be stored', async () => {
    expect((await callStats({})).headers.get('cache-control')).toBe('no-store');
  });
});

describe('Cloudflare Access', () => {
  const now = () => Math.floor(Date.now() / 1000);

  /** A team of its own per test (the keys are cached per team), with its certs answered by a mock fetch. */
  async function team() {
    const { bindings, ...made } = await accessTeam();
    const call = (jwt: string) => callStats({ 'cf-access-jwt-assertion': jwt }, bindings);
    return { ...made, call };
  }

  it('lets in a request Access signed for this application', async () => {
    const { key, claims, call } = await team();
    expect((await call(await key.sign(claims))).status).toBe(200);
  });

  it('fetches the team’s keys once for many requests', async () => {
    const { key, claims, call, certs } = await team();
    await call(await key.sign(claims));
    await call(await key.sign(claims));
    expect(certs).toHaveBeenCalledTimes(1);
  });

  it('refuses a JWT for another application', async () => {
    const { key, claims, call } = await team();
    expect((await call(await key.sign({ ...claims, aud: ['other-app'] }))).status).toBe(401);
  });

  it('refuses an expired JWT', async () => {
    const { key, claims, call } = await team();
    expect((await call(await key.sign({ ...claims, exp: now() - 120 }))).status).toBe(401);
  });

  it('refuses a JWT from another issuer', async () => {
    const { key, claims, call } = await team();
    expect((await call(await key.sign({ ...claims, iss: 'https://evil.cloudflareaccess.com' }))).status).toBe(401);
  });

  it('refuses a JWT signed with a key not the team’s', async () => {
    const { claims, call } = await team();
    const stranger = await accessKey('k1');
    expect((await call(await stranger.sign(claims))).status).toBe(401);
  });

  it('refuses a JWT whose claims were changed after signing', async () => {
    const { key, claims, call } = await team();
    const [head, , signature] = (await key.sign({ ...claims, sub: 'ops@example.com' })).split('.');
    const forged = toBase64Url(new TextEncoder().encode(JSON.stringify({ ...claims, sub: 'boss@example.com' })));
    expect((await call(`${head}.${forged}.${signature}`)).status).toBe(401);
  });

  it('refuses an unsigned JWT (alg none)', async () => {
    const { key, claims, call } = await team();
    const [head, body] = (await key.sign(claims, { alg: 'none', kid: 'k1' })).split('.');
    expect((await call(`${head}.${body}.`)).status).toBe(401);
  });

  describe('a local stand-in for Access at http://127.0.0.1:<port>', () => {
    async function local() {
      const origin = `http://127.0.0.1:${20_000 + Math.floor(Math.random() * 40_000)}`;
      const key = await accessKey('k1');
      const fetched: string[] = [];
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
        const url = input instanceof Request ? input.url : String(input);
        fetched.push(url);
        if (url !== `${origin}/cdn-cgi/access/certs`) throw new Error(`unexpected fetch ${url}`);
        return Response.json({ keys: [key.jwk] });
      });
      const jwt = await key.sign({ aud: [AUD], iss: origin, exp: now() + 600 });
      const call = (env: string) =>
        callStats({ 'cf-access-jwt-assertion': jwt }, { LANDER_ENV: env, ACCESS_AUD: AUD, ACCESS_TEAM_DOMAIN: origin });
      return { fetched, call, origin };
    }

    it('signs in in development, its keys fetched over http', async () => {
      const { call, fetched, origin } = await local();
      expect((await call('development')).status).toBe(200);
      expect(fetched).toEqual([`${origin}/cdn-cgi/access/certs`]);
    });

    it('is never asked over http in production', async () => {
      const { call, fetched } = await local();
      expect((await call('production')).status).toBe(401);
      expect(fetched.filter((url) => url.startsWith('http:'))).toEqual([]);
    });
  });

  it('refuses a request with no JWT, and answers 401 rather than 503 when only Access is set', async () => {
    const { domain } = await team();
    const res = await callStats({}, { LANDER_ENV: 'production', ACCESS_AUD: AUD, ACCESS_TEAM_DOMAIN: domain });
    expect(res.status).toBe(401);
  });
});
