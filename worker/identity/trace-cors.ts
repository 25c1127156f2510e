/**
 * CORS for the trace service (docs/identity.md): with credentials, and only for the origins listed in
 * `TRACE_ALLOWED_ORIGINS` (comma-separated; empty = same origin only). A call from the page's own
 * origin passes without CORS headers; a call or preflight from any other origin is refused with 403
 * before the trace handler runs, so it is neither answered with an id nor counted. A request without
 * `Origin` that the browser marks `Sec-Fetch-Site: cross-site` (an `<img>` or a link on another
 * site) is refused the same way; header-less clients (no browser) and same-site calls pass.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';

/** Trace CORS as a middleware: echoes allowed origins with credentials, refuses others with 403. */
export function traceCors(): MiddlewareHandler<AppEnv> {
  // Reached only for an origin already checked below, so it echoes that origin (never `*`, which
  // browsers refuse together with credentials).
  const corsForAllowed = cors({
    origin: (origin) => origin,
    credentials: true,
    allowMethods: ['GET', 'HEAD'],
    // Seconds a browser may reuse a preflight answer.
    maxAge: 600,
  });
  return async function traceCorsMiddleware(c, next) {
    const origin = c.req.header('origin');
    if (origin === undefined) {
      if (c.req.header('sec-fetch-site') !== 'cross-site') return next();
      return c.json({ error: 'Cross-site requests need an allowed Origin' }, 403, { vary: 'Origin' });
    }
    if (origin === new URL(c.req.url).origin) return next();
    if (settingsOf(c.env).traceAllowedOrigins.has(origin)) return corsForAllowed(c, next);
    return c.json({ error: 'Origin not allowed' }, 403, { vary: 'Origin' });
  };
}
