/**
 * Machine clients with the OpenID Connect provider's JWTs (docs/operators.md#machine-clients), through
 * the real worker: `Authorization: Bearer <JWT>` — an ID token, or a `typ: JWT` access token for
 * `OIDC_API_AUDIENCE` — checked with jose against the provider's keys (a provider of the test's own,
 * oidc-provider.ts), then the same member look-up as a signed-in person; a wrong issuer, audience,
 * type, signature or expiry is 401 naming which, and nothing is stored.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '../../../shared/me.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';
import { CLIENT_ID, oidcProvider } from '../oidc-provider.ts';
import { clearMembers, seedMember } from '../team/team-fixtures.ts';

const API_AUDIENCE = 'https://api.lander.test';

afterEach(async () => {
  vi.restoreAllMocks();
  await clearMembers();
});

/** A provider, a signer of its tokens with the right claims (`claims` laid over), and calls with a bearer. */
async function setUp(extra: Partial<Env> = {}) {
  const provider = await oidcProvider();
  const bindings: Partial<Env> = { ...provider.bindings, ...extra };
  const now = Math.floor(Date.now() / 1000);
  const idToken = (claims: Record<string, unknown> = {}, header?: Record<string, unknown>) =>
    provider.sign(
      { iss: provider.issuer, aud: CLIENT_ID, sub: 'user-1234', iat: now, exp: now + 300, ...claims },
      header ? { alg: 'RS256', kid: 'k1', ...header } : undefined,
    );
  const call = (jwt: string, method = 'GET', path = '/api/links', body?: unknown) =>
    fetchWorker(
      `${ORIGIN}${path}`,
      {
        method,
        headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      bindings,
    );
  const jwksFetches = () =>
    provider.fetched.mock.calls.filter(([input]) =>
      String(input instanceof Request ? input.url : input).endsWith('/jwks'),
    ).length;
  return { provider, idToken, call, jwksFetches, now };
}

async function refusal(res: Response, status: number): Promise<string> {
  expect(res.status, await res.clone().text()).toBe(status);
  return ((await res.json()) as { error: string }).error;
}

describe('a provider’s JWT as a bearer', () => {
  it('an ID token of a member: its role in the app, named by its verified email, via oidc-token', async () => {
    const { idToken, call } = await setUp();
    await seedMember('robot@example.com', 'editor');
    const jwt = await idToken({ email: 'robot@example.com', email_verified: true });
    expect((await call(jwt)).status).toBe(200);
    const me = (await (await call(jwt, 'GET', '/api/me')).json()) as Me;
    expect(me).toMatchObject({ actor: 'robot@example.com', via: 'oidc-token', role: 'editor', signOut: null });
    // Its changes are audited under its name.
    const slug = `jwt-${crypto.randomUUID().slice(0, 8)}`;
    expect((await call(jwt, 'POST', '/api/links', { channel: 'robots', slug })).status).toBe(201);
    const entry = await env.FUNNEL_DB.prepare('SELECT actor, via FROM audit_entries WHERE target = ?')
      .bind(slug)
      .first();
    expect(entry).toEqual({ actor: 'robot@example.com', via: 'oidc-token' });
  });

  it('a typ JWT access token for OIDC_API_AUDIENCE, named by its subject when it has no verified email', async () => {
    const { idToken, call } = await setUp({ OIDC_API_AUDIENCE: API_AUDIENCE });
    await seedMember('svc-42', 'analyst');
    const jwt = await idToken({ aud: API_AUDIENCE, sub: 'svc-42', email: 'x@example.com' }, { typ: 'JWT' });
    const me = (await (await call(jwt, 'GET', '/api/me')).json()) as Me;
    expect(me).toMatchObject({ actor: 'svc-42', via: 'oidc-token', role: 'analyst' });
    // The role decides as for a person: an analyst changes no link.
    expect(await refusal(await call(jwt, 'POST', '/api/links', { channel: 'x' }), 403)).toBe(
      'Forbidden: this needs the scope links:write, which the role analyst does not hold',
    );
  });

  it('another issuer: 401 naming the issuer, before any key is fetched', async () => {
    const { idToken, call, jwksFetches, provider } = await setUp();
    const jwt = await idToken({ iss: 'https://idp.elsewhere.example' });
    const error = await refusal(await call(jwt), 401);
    expect(error).toBe(
      `Authorization: the token's issuer "https://idp.elsewhere.example" is not this deployment's provider ${provider.issuer}`,
    );
    expect(jwksFetches()).toBe(0);
  });

  it('another audience: 401 naming the audience, and the audiences taken', async () => {
    const { idToken, call } = await setUp();
    const res = await call(await idToken({ aud: 'someone-else' }));
    expect(await refusal(res, 401)).toBe(`Authorization: the token's audience "someone-else" is not ${CLIENT_ID}`);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="lander-admin", error="invalid_token"');
    // An access token for an API audience the deployment does not name is refused the same way.
    const { idToken: token2, call: call2 } = await setUp();
    expect(await refusal(await call2(await token2({ aud: API_AUDIENCE }, { typ: 'JWT' })), 401)).toMatch(/audience/);
  });

  it('expired, signed by another key, or of another type: 401 naming which; nothing stored', async () => {
    const { idToken, call, provider, now } = await setUp();
    expect(await refusal(await call(await idToken({ exp: now - 120 })), 401)).toBe('Authorization: the token expired');
    expect(await refusal(await call(await idToken({}, { typ: 'at+jwt' })), 401)).toBe(
      `Authorization: the token's typ is "at+jwt"; an ID token or a typ JWT access token is taken`,
    );
    await provider.forge();
    const slug = `forged-${crypto.randomUUID().slice(0, 8)}`;
    const forged = await call(await idToken(), 'POST', '/api/links', { channel: 'x', slug });
    expect(await refusal(forged, 401)).toBe(
      "Authorization: the token's signature is not by one of the provider's keys",
    );
    expect((await call(await idToken({ exp: now - 120 }), 'GET', `/api/links/${slug}`)).status).toBe(401);
    expect(await env.FUNNEL_DB.prepare('SELECT 1 FROM audit_entries WHERE target = ?').bind(slug).first()).toBeNull();
  });

  it('a valid token of someone not a member of an app with members: 403, as a signed-in stranger', async () => {
    const { idToken, call } = await setUp();
    await seedMember('boss@example.com', 'owner');
    const jwt = await idToken({ email: 'stranger@example.com', email_verified: true });
    expect(await refusal(await call(jwt), 403)).toBe(
      'stranger@example.com is not a member of the app default: an owner or admin adds members',
    );
  });

  it("adding the first member of an app with none keeps the token's person as its owner, not locked out", async () => {
    const { idToken, call } = await setUp();
    const jwt = await idToken({ email: 'Robot@Example.com', email_verified: true });
    expect((await call(jwt, 'PUT', '/api/members/viewer@example.com', { role: 'viewer' })).status).toBe(201);
    const res = await call(jwt, 'GET', '/api/members');
    expect(res.status, await res.clone().text()).toBe(200);
    const { members } = (await res.json()) as { members: { subject: string; role: string }[] };
    expect(members.map(({ subject, role }) => [subject, role])).toEqual([
      ['robot@example.com', 'owner'],
      ['viewer@example.com', 'viewer'],
    ]);
  });

  it('without OpenID Connect configured, a JWT is no credential: 401 asking to sign in', async () => {
    const { idToken } = await setUp();
    const res = await fetchWorker(`${ORIGIN}/api/links`, { headers: { authorization: `Bearer ${await idToken()}` } });
    expect(await refusal(res, 401)).toMatch(/^Sign in/);
  });
});
