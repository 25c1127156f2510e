/**
 * `GET /api/trace` — the trace service (docs/identity.md). Answers `{ "userId": "<uuid>" }`: the
 * `user_id` cookie when it holds a valid UUID, else a fresh `crypto.randomUUID()`, and (re)sets the
 * cookie for a year. A malformed cookie is replaced, never echoed. Each counted call logs one
 * structured line with the visit's bounded query data and the id's keyed hash, never the id. Bots are not counted: they get an id but no
 * cookie and no log line (docs/identity.md). With `COOKIELESS=on` (docs/operators.md) it sets no cookie
 * either: the page does not call it then, and a caller that does still gets no cookie.
 */
import { Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { isUuid, USER_ID_KEY, USER_ID_MAX_AGE } from '../../shared/identity.ts';
import { readToken } from '../campaign/query-data.ts';
import type { AppEnv } from '../env.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { settingsOf } from '../settings.ts';
import { traceCors } from './trace-cors.ts';
import { traceQuery } from './trace-query.ts';

/** Mounted at `/api/trace`. */
export const trace = new Hono<AppEnv>();

trace.use(traceCors());

trace.get('/', async (c) => {
  const cookie = getCookie(c, USER_ID_KEY);
  const reused = isUuid(cookie) ? cookie.toLowerCase() : null;
  const userId = reused ?? crypto.randomUUID();
  // Each answer belongs to one visitor: no shared cache may keep it.
  c.header('cache-control', 'no-store');
  if (!c.get('device').bot) {
    if (!settingsOf(c.env).cookieless) {
      setCookie(c, USER_ID_KEY, userId, { maxAge: USER_ID_MAX_AGE, path: '/', secure: true, sameSite: 'Lax' });
    }
    const params = new URL(c.req.url).searchParams;
    const { data, dropped } = traceQuery(params);
    const d = params.get('d');
    // The token's fields and the plain parameters stay apart in the record (shared/campaign.ts).
    const signed = (d && readToken(d, settingsOf(c.env).decodeKey)) || {};
    // The id itself is never logged (docs/privacy.md): its keyed hash, as attribution keeps a visitor.
    const salt = settingsOf(c.env).attributionSalt;
    const visitor = salt ? await keyedHash(salt, userId) : null;
    console.log({ event: 'trace', visitor, minted: reused === null, signed, plain: data, droppedParams: dropped });
  }
  return c.json({ userId });
});

trace.all('/', (c) => c.json({ error: 'Method Not Allowed' }, 405, { allow: 'GET, HEAD, OPTIONS' }));
