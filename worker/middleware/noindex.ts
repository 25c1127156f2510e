/**
 * Keeps a page out of search indexes with `X-Robots-Tag: noindex, nofollow` (docs/routes.md): for
 * pages such as the operators' console (`/admin`), whose route carries no head data of its own, so the
 * visitors' route table stays as small as it is (docs/routes.md).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';

export function noindex(): MiddlewareHandler<AppEnv> {
  return async function noindexMiddleware(c, next) {
    await next();
    c.res.headers.set('X-Robots-Tag', 'noindex, nofollow');
  };
}
