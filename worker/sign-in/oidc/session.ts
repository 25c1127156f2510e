/**
 * Who the OpenID Connect session cookie signs in (docs/operators.md#openid-connect): its verified
 * email, else its subject, as the audit log names an operator; null without a valid session.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../../env.ts';
import type { Settings } from '../../settings.ts';
import { configuredOf, readCookie, type Session } from './cookies.ts';

/** The path of the sign-in page, when OpenID Connect is configured; the admin API's 401 names it. */
export function signInPath(settings: Settings): string | undefined {
  return configuredOf(settings) ? '/auth/login' : undefined;
}

/** The operator a valid session cookie names, or null. */
export async function sessionOperator(c: Context<AppEnv>, settings: Settings): Promise<string | null> {
  const configured = configuredOf(settings);
  if (!configured) return null;
  const session = await readCookie<Session>(c, configured, 'lander-session');
  return session.ok ? session.payload.email || session.payload.sub : null;
}
