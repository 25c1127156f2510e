/**
 * `GET /api/me` (docs/operators.md#who-is-calling): who the caller is in the request's app — as the
 * audit log names it, how it signed in, its role or its API key, its scopes — and, for an OpenID
 * Connect session, where to end it. Any caller the sign-in knows may ask; it needs no scope.
 */
import { Hono } from 'hono';
import type { Me } from '../../shared/me.ts';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { sessionOperator } from './oidc/session.ts';
import { operatorAuth } from './operator-auth.ts';

/** How operator-auth.ts names a key's caller (`key:<name>`) and how it came (`key:<id>`). */
const KEY_VIA = 'key:';

export const meRoute = new Hono<AppEnv>();
meRoute.use(operatorAuth(null));

meRoute.get('/', async (c) => {
  const { actor, via, role, scopes } = c.get('operator') ?? {
    actor: 'unknown',
    via: 'unknown',
    role: null,
    scopes: [],
  };
  // A key's caller is named `key:<name>` and comes `key:<id>` (operator-auth.ts).
  const key = via.startsWith(KEY_VIA) ? { id: via.slice(KEY_VIA.length), name: actor.slice(KEY_VIA.length) } : null;
  // The session cookie is read before Access's assertion, so a sign-in with a valid one is the session's.
  const session = via === 'sign-in' && (await sessionOperator(c, settingsOf(c.env))) !== null;
  const me: Me = {
    actor,
    via,
    app: c.get('app'),
    role,
    key,
    scopes: [...scopes],
    signOut: session ? '/auth/logout' : null,
  };
  return c.json(me);
});
