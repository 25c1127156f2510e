/**
 * Who may call the admin API, and what they may do there (docs/operators.md#who-may-call-the-admin-api):
 * - `Authorization: Bearer <ADMIN_TOKEN>`: owner of every app. Development accepts the built-in
 *   token `lander-dev-admin` unless `ADMIN_TOKEN` is set; production never does;
 * - `Authorization: Bearer lk_…`: an API key of the request's app, with its own scopes (api-keys.ts);
 * - `Authorization: Bearer <JWT>` of the OpenID Connect provider, for machine clients (oidc/bearer-jwt.ts);
 * - a signed-in identity — Cloudflare Access when `ACCESS_AUD` and `ACCESS_TEAM_DOMAIN` are set, the
 *   OpenID Connect session cookie when `OIDC_ISSUER` is (oidc/) — with its role in the request's app (members.ts).
 * A provider's JWT and a signed-in identity meet the same member look-up.
 * Each route declares what it needs (`operatorAuth('links')`, `operatorAuth('stats:read')`), checked
 * against the roles table (shared/roles.ts): 403 names the missing scope. Every call is counted
 * against its caller's rate limit (rate-limit.ts). With neither a token nor Access the admin API
 * answers 503 "not configured".
 */
import type { Context, MiddlewareHandler } from 'hono';
import { type Need, ROLE_SCOPES, type Role, SCOPES, scopeFor } from '../../shared/roles.ts';
import type { AppEnv, Operator } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { verifyAccessJwt } from './access-jwt.ts';
import { findKey, KEY_PREFIX } from './api-keys.ts';

import { roleOf, subjectKey } from './members.ts';
import { isJwt, verifyBearerJwt } from './oidc/bearer-jwt.ts';
import { sessionOperator, signInPath } from './oidc/session.ts';
import { DEV_TOKEN_RATE, PERSON_RATE, type RatePolicy, spendCall, TOKEN_RATE } from './rate-limit.ts';
import { safeEqual } from './safe-equal.ts';

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/** A caller once known: who they are for the audit log, and their rate limit. */
interface Caller {
  operator: Operator;
  policy: RatePolicy;
}

const minute = (name: RatePolicy['name'], bucket: string, quota: number): RatePolicy => ({
  name,
  bucket,
  quota,
  window: 60,
});

/** The admin token's caller: owner of every app; in development, with the shared local token's quota. */
const TOKEN_CALLERS: Record<'development' | 'production', Caller> = {
  production: {
    operator: { actor: 'token', via: 'token', role: 'owner', scopes: SCOPES },
    policy: minute('token', 'token', TOKEN_RATE),
  },
  development: {
    operator: { actor: 'token', via: 'token', role: 'owner', scopes: SCOPES },
    policy: minute('token', 'token', DEV_TOKEN_RATE),
  },
};

/** The caller of an API key, or the refusal: 401 for a key unknown, revoked or expired; 403 for another app's. */
async function keyCaller(c: Context<AppEnv>, given: string): Promise<Caller | Response> {
  const key = await findKey(c.env.FUNNEL_DB, given);
  if (!key) return c.json({ error: 'Authorization: no such API key' }, 401);
  if (key.revokedAt !== null) {
    return c.json(
      { error: `Authorization: this API key was revoked at ${new Date(key.revokedAt).toISOString()}` },
      401,
    );
  }
  if (key.expiresAt !== null && key.expiresAt <= Date.now()) {
    return c.json({ error: `Authorization: this API key expired at ${new Date(key.expiresAt).toISOString()}` }, 401);
  }
  if (key.app !== c.get('app')) {
    return c.json({ error: `Authorization: this API key is another app's, not ${c.get('app')}'s` }, 403);
  }
  return {
    operator: { actor: `key:${key.name}`, via: `key:${key.id}`, role: null, scopes: key.scopes },
    policy: minute('key', key.id, key.rate),
  };
}

/**
 * The identity a sign-in provider vouches for (an email, else a subject), or null. Another provider
 * is one more line here; its identity then meets the same member look-up.
 */
async function signedInIdentity(c: Context<AppEnv>): Promise<string | null> {
  // A session of the deployment's OpenID Connect provider (oidc/session.ts).
  const session = await sessionOperator(c, settingsOf(c.env));
  if (session) return session;
  const { ACCESS_AUD: audience, ACCESS_TEAM_DOMAIN: teamDomain } = c.env;
  const assertion = c.req.header('cf-access-jwt-assertion');
  if (!audience || !teamDomain || !assertion) return null;
  // Development may put a local stand-in for Access at http://127.0.0.1:<port> (access-jwt.ts).
  const loopback = settingsOf(c.env).env === 'development';
  return verifyAccessJwt(assertion, { audience, teamDomain, loopback });
}

/**
 * The caller of a signed-in identity, by its role in this app; 403 for one not a member of it. `via`:
 * `sign-in` (Access, a session), `oidc-token` (a provider's JWT as a bearer).
 */
async function memberCaller(c: Context<AppEnv>, identity: string, via = 'sign-in'): Promise<Caller | Response> {
  const app = c.get('app');
  const role: Role | null = await roleOf(c.env.FUNNEL_DB, app, identity);
  if (!role) {
    return c.json({ error: `${identity} is not a member of the app ${app}: an owner or admin adds members` }, 403);
  }
  return {
    operator: { actor: identity, via, role, scopes: ROLE_SCOPES[role] },
    policy: minute('sign-in', subjectKey(identity), PERSON_RATE),
  };
}

/** Who is calling, or the answer that refuses them. */
async function callerOf(c: Context<AppEnv>): Promise<Caller | Response> {
  const token = settingsOf(c.env).adminToken;
  if (!token && !(c.env.ACCESS_AUD && c.env.ACCESS_TEAM_DOMAIN) && !settingsOf(c.env).oidc) {
    return c.json({ error: 'The admin API is not configured: set the ADMIN_TOKEN secret (docs/operators.md)' }, 503);
  }
  const given = bearer(c.req.header('authorization'));
  if (token && given !== undefined && (await safeEqual(given, token))) return TOKEN_CALLERS[settingsOf(c.env).env];
  if (given?.startsWith(KEY_PREFIX)) return keyCaller(c, given);
  const oidc = settingsOf(c.env).oidc;
  if (oidc && given !== undefined && isJwt(given)) {
    const verified = await verifyBearerJwt(given, oidc);
    if (!verified.ok) {
      if (verified.status === 401) c.header('WWW-Authenticate', 'Bearer realm="lander-admin", error="invalid_token"');
      return c.json({ error: verified.reason }, verified.status);
    }
    return memberCaller(c, verified.identity, 'oidc-token');
  }
  const identity = await signedInIdentity(c);
  if (identity) return memberCaller(c, identity);
  c.header('WWW-Authenticate', 'Bearer realm="lander-admin"');
  // With OpenID Connect, the console offers its sign-in page (`signIn`).
  const signIn = signInPath(settingsOf(c.env));
  return c.json({ error: 'Sign in: Authorization: Bearer <admin token or API key>', ...(signIn && { signIn }) }, 401);
}

/**
 * Lets through only callers holding the scope the route needs for this method (`need`, shared/roles.ts;
 * null: any caller once known, as `GET /api/me`), naming them in the `operator` variable; counts the
 * call against their rate limit; sets `Cache-Control: no-store` on every admin answer.
 */
export function operatorAuth(need: Need | null): MiddlewareHandler<AppEnv> {
  return async function operatorAuthMiddleware(c, next) {
    c.header('Cache-Control', 'no-store');
    let caller: Caller | Response;
    try {
      caller = await callerOf(c);
    } catch (error) {
      console.error('Sign-in not checked', error instanceof Error ? error.message : String(error));
      return c.json({ error: 'The members and keys store is unavailable; try again' }, 503);
    }
    if (caller instanceof Response) return caller;
    c.set('operator', caller.operator);
    const refused = await spendCall(c, caller.policy);
    if (refused) return refused;
    if (need === null) return next();
    const scope = scopeFor(need, c.req.method);
    if (!caller.operator.scopes.includes(scope)) {
      const who = caller.operator.role ? `the role ${caller.operator.role}` : 'this API key';
      return c.json({ error: `Forbidden: this needs the scope ${scope}, which ${who} does not hold` }, 403);
    }
    return next();
  };
}
