/**
 * The headers of lib/headers.ts on every response a handler did not complete itself (docs/security.md,
 * docs/device.md): security headers and CSP, `Accept-CH` and `Vary`. A CSP already there is the
 * page's own; any other response has no inline script, so its CSP has no nonce.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { addAnswerHeaders, isComplete } from '../lib/headers.ts';

export function responseHeaders(): MiddlewareHandler<AppEnv> {
  return async function responseHeadersMiddleware(c, next) {
    await next();
    // Set in place: c.header() would re-wrap the finished response.
    if (!isComplete(c.res)) addAnswerHeaders(c.res.headers);
  };
}
