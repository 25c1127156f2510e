/**
 * Sign-in with the deployment's OpenID Connect provider (docs/operators.md#openid-connect): the
 * authorization code flow with PKCE (S256), state and nonce, by `oauth4webapi`.
 *
 * - `GET /auth/login?return=/admin…` → 302 to the provider, the sign-in under way in a signed cookie;
 * - `GET /auth/callback` → the code exchanged, the ID token checked (issuer, audience, nonce, expiry,
 *   signature by the provider's keys), the session cookie set, 302 back to `return`;
 * - `POST /auth/logout` → the session cookie cleared, 204.
 *
 * A refused sign-in answers a 4xx naming the reason (refusal.ts) and keeps nothing.
 */
import { type Context, Hono } from 'hono';
import * as oauth from 'oauth4webapi';
import type { AppEnv } from '../../env.ts';
import { settingsOf } from '../../settings.ts';
import { crossOriginReason } from '../cross-site-writes.ts';
import {
  type Configured,
  configuredOf,
  dropCookie,
  keepCookie,
  readCookie,
  SESSION_SECONDS,
  type Session,
  SIGN_IN_SECONDS,
  type SignIn,
} from './cookies.ts';
import { clientAuthOf, clientOf, providerOf, requestOptions } from './provider.ts';
import { type Refusal, refusalOf } from './refusal.ts';

const HOME = '/admin';

/** `asked` when it is a path on this origin (`/admin?from=…`), else the console. */
export function returnPath(asked: string | undefined, origin: string): string {
  if (!asked?.startsWith('/') || asked.startsWith('//') || asked.startsWith('/\\')) return HOME;
  if (!URL.canParse(asked, origin)) return HOME;
  const url = new URL(asked, origin);
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : HOME;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A refusal: JSON for a client, a short page for a browser; nothing kept. */
function refuse(c: Context<AppEnv>, { status, reason }: Refusal) {
  const error = `Sign-in refused: ${reason}`;
  if (!c.req.header('accept')?.includes('text/html')) return c.json({ error }, status);
  const page = `<!doctype html><meta charset="utf-8"><title>Sign-in refused</title><h1>Sign-in refused</h1><p>${escapeHtml(reason)}</p><p><a href="/auth/login">Sign in again</a></p>`;
  return c.html(page, status);
}

/** The configured sign-in, or the answer saying why there is none. */
function configuredFor(c: Context<AppEnv>): Configured | Response {
  const settings = settingsOf(c.env);
  const configured = configuredOf(settings);
  if (configured) return configured;
  if (!settings.oidc) {
    return c.json({ error: 'OpenID Connect sign-in is not configured: set OIDC_ISSUER and OIDC_CLIENT_ID' }, 404);
  }
  return c.json({ error: 'OpenID Connect sign-in is not configured: set the SESSION_SECRET secret' }, 503);
}

const redirectUriOf = (c: Context<AppEnv>) => new URL('/auth/callback', c.req.url).href;
const seconds = () => Math.floor(Date.now() / 1000);

export const signInRoutes = new Hono<AppEnv>();

signInRoutes.use(async function noStore(c, next) {
  await next();
  c.header('Cache-Control', 'no-store');
});

signInRoutes.get('/login', async (c) => {
  const configured = configuredFor(c);
  if (configured instanceof Response) return configured;
  const { oidc } = configured;
  let provider: oauth.AuthorizationServer;
  try {
    provider = await providerOf(oidc);
  } catch (error) {
    return refuse(c, refusalOf(error));
  }
  if (!provider.authorization_endpoint) {
    return refuse(c, { status: 502, reason: "the provider's metadata names no authorization_endpoint" });
  }
  const verifier = oauth.generateRandomCodeVerifier();
  const signIn: SignIn = {
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    verifier,
    back: returnPath(c.req.query('return'), new URL(c.req.url).origin),
    exp: seconds() + SIGN_IN_SECONDS,
  };
  await keepCookie(c, configured, 'lander-sign-in', signIn);
  const to = new URL(provider.authorization_endpoint);
  for (const [name, value] of Object.entries({
    client_id: oidc.clientId,
    redirect_uri: redirectUriOf(c),
    response_type: 'code',
    scope: oidc.scopes,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: signIn.state,
    nonce: signIn.nonce,
  })) {
    to.searchParams.set(name, value);
  }
  return c.redirect(to.href, 302);
});

const NO_SIGN_IN = {
  missing: 'no sign-in was started in this browser (or it was for another provider): start again at /auth/login',
  tampered: 'the sign-in cookie was altered: start again at /auth/login',
  expired: `the sign-in took longer than ${SIGN_IN_SECONDS / 60} minutes: start again at /auth/login`,
};

signInRoutes.get('/callback', async (c) => {
  const configured = configuredFor(c);
  if (configured instanceof Response) return configured;
  const started = await readCookie<SignIn>(c, configured, 'lander-sign-in');
  // A sign-in is finished once, whatever its outcome.
  dropCookie(c, configured, 'lander-sign-in');
  if (!started.ok) return refuse(c, { status: 400, reason: NO_SIGN_IN[started.reason] });
  const { state, nonce, verifier, back } = started.payload;
  const callback = new URL(c.req.url);
  if (callback.searchParams.get('state') !== state) {
    return refuse(c, { status: 400, reason: 'state: not the one this browser’s sign-in sent' });
  }
  const { oidc } = configured;
  try {
    const provider = await providerOf(oidc);
    const client = clientOf(oidc);
    const params = oauth.validateAuthResponse(provider, client, callback, state);
    const options = requestOptions(oidc);
    const auth = clientAuthOf(oidc, provider);
    const answer = await oauth.authorizationCodeGrantRequest(
      provider,
      client,
      auth,
      params,
      redirectUriOf(c),
      verifier,
      options,
    );
    const tokens = await oauth.processAuthorizationCodeResponse(provider, client, answer, {
      expectedNonce: nonce,
      requireIdToken: true,
    });
    await oauth.validateApplicationLevelSignature(provider, answer, options);
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (!claims) return refuse(c, { status: 401, reason: 'id_token: the provider sent none' });
    const email = claims.email_verified === true && typeof claims.email === 'string' ? claims.email : undefined;
    const session: Session = { sub: claims.sub, ...(email ? { email } : {}), exp: seconds() + SESSION_SECONDS };
    await keepCookie(c, configured, 'lander-session', session);
    return c.redirect(back, 302);
  } catch (error) {
    return refuse(c, refusalOf(error));
  }
});

signInRoutes.post('/logout', (c) => {
  const configured = configuredFor(c);
  if (configured instanceof Response) return configured;
  // Another site's page may not sign the operator out.
  const reason = crossOriginReason(c.req.raw);
  if (reason) return c.json({ error: reason }, 403);
  dropCookie(c, configured, 'lander-session');
  return c.body(null, 204);
});
