/**
 * Who may call the admin API (docs/operators.md): a request with `Authorization: Bearer <ADMIN_TOKEN>`,
 * or — when `ACCESS_AUD` and `ACCESS_TEAM_DOMAIN` are set — one that Cloudflare Access signed in, or —
 * when `OIDC_ISSUER` is — one the OpenID Connect session cookie signs in (oidc/).
 * Development accepts the built-in token `lander-dev-admin` unless `ADMIN_TOKEN` is set; production
 * never does, and with neither a token nor Access the admin API answers 503 "not configured".
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { verifyAccessJwt } from './access-jwt.ts';
import { sessionOperator, signInPath } from './oidc/session.ts';
import { safeEqual } from './safe-equal.ts';

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * Lets through only signed-in operators, naming them in the `operator` variable; sets
 * `Cache-Control: no-store` on every admin answer.
 */
export function operatorAuth(): MiddlewareHandler<AppEnv> {
  return async function operatorAuthMiddleware(c, next) {
    c.header('Cache-Control', 'no-store');
    const settings = settingsOf(c.env);
    const token = settings.adminToken;
    const { ACCESS_AUD: audience, ACCESS_TEAM_DOMAIN: teamDomain } = c.env;
    // Development may put a local stand-in for Access at http://127.0.0.1:<port> (access-jwt.ts).
    const loopback = settings.env === 'development';
    const access = audience && teamDomain ? { audience, teamDomain, loopback } : undefined;
    if (!token && !access && !settings.oidc) {
      return c.json({ error: 'The admin API is not configured: set the ADMIN_TOKEN secret (docs/operators.md)' }, 503);
    }
    const given = bearer(c.req.header('authorization'));
    if (token && given !== undefined && (await safeEqual(given, token))) {
      c.set('operator', { actor: 'token', via: 'token' });
      return next();
    }
    const assertion = c.req.header('cf-access-jwt-assertion');
    const identity = access && assertion ? await verifyAccessJwt(assertion, access) : null;
    if (identity) {
      c.set('operator', { actor: identity, via: 'sign-in' });
      return next();
    }
    // A session of the deployment's OpenID Connect provider (oidc/session.ts).
    const session = await sessionOperator(c, settings);
    if (session) {
      c.set('operator', { actor: session, via: 'sign-in' });
      return next();
    }
    c.header('WWW-Authenticate', 'Bearer realm="lander-admin"');
    // With OpenID Connect, the console offers its sign-in page (`signIn`).
    const signIn = signInPath(settings);
    return c.json({ error: 'Sign in: Authorization: Bearer <admin token>', ...(signIn && { signIn }) }, 401);
  };
}
