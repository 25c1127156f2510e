/**
 * The OpenID Connect sign-in's two cookies (docs/operators.md#openid-connect): `lander-sign-in`, a
 * sign-in under way (state, nonce, PKCE verifier, where to return; ten minutes), and `lander-session`,
 * who signed in (subject, verified email, expiry; at most 12 hours). Both are HttpOnly, SameSite=Lax and
 * signed (sealed.ts); production names them `__Host-…` (Secure, Path=/, no Domain), development over
 * http leaves Secure off so a local browser keeps them.
 */
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { AppEnv } from '../../env.ts';
import type { OidcSettings, Settings } from '../../settings.ts';
import { type SealContext, seal, type Unsealed, unseal } from './sealed.ts';

/** A session's longest life. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** How long a sign-in may take at the provider. */
export const SIGN_IN_SECONDS = 10 * 60;

export type CookieName = 'lander-sign-in' | 'lander-session';

/** A sign-in under way, as its cookie holds it. */
export interface SignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** The same-origin path to go back to. */
  back: string;
  exp: number;
}

/** Who signed in, as the session cookie holds it: nothing else. */
export interface Session {
  sub: string;
  /** The ID token's email, only when the provider said it is verified. */
  email?: string;
  exp: number;
}

/** The OpenID Connect settings with the key their cookies are signed with. */
export interface Configured {
  oidc: OidcSettings;
  secret: string;
  production: boolean;
}

function contextOf({ oidc, secret }: Configured, name: CookieName): SealContext {
  return { secret, binding: `${name}|${oidc.issuer.href}|${oidc.clientId}` };
}

function optionsOf(c: Context<AppEnv>, { production }: Configured, maxAge: number): CookieOptions {
  const secure = production || new URL(c.req.url).protocol === 'https:';
  return production
    ? { path: '/', httpOnly: true, sameSite: 'Lax', maxAge, secure: true, prefix: 'host' }
    : { path: '/', httpOnly: true, sameSite: 'Lax', maxAge, secure };
}

/** The OpenID Connect settings when sign-in is configured and has its key; else undefined. */
export function configuredOf(settings: Settings): Configured | undefined {
  const { oidc, sessionSecret: secret } = settings;
  return oidc && secret ? { oidc, secret, production: settings.env === 'production' } : undefined;
}

/** Sets cookie `name` to `payload`, signed, for as long as `payload.exp` says. */
export async function keepCookie(
  c: Context<AppEnv>,
  configured: Configured,
  name: CookieName,
  payload: SignIn | Session,
): Promise<void> {
  const maxAge = Math.max(0, payload.exp - Math.floor(Date.now() / 1000));
  setCookie(c, name, await seal(contextOf(configured, name), payload), optionsOf(c, configured, maxAge));
}

/** Clears cookie `name`. */
export function dropCookie(c: Context<AppEnv>, configured: Configured, name: CookieName): void {
  const { maxAge: _, ...options } = optionsOf(c, configured, 0);
  deleteCookie(c, name, options);
}

/** Cookie `name`'s payload, or why it is refused; `missing` when the request has none. */
export async function readCookie<T extends SignIn | Session>(
  c: Context<AppEnv>,
  configured: Configured,
  name: CookieName,
): Promise<Unsealed<T> | { ok: false; reason: 'missing' }> {
  const value = configured.production ? getCookie(c, name, 'host') : getCookie(c, name);
  if (!value) return { ok: false, reason: 'missing' };
  return unseal<T>(contextOf(configured, name), value);
}
