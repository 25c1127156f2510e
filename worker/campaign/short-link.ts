/**
 * `GET /s/<slug>` (docs/operators.md): reads the stored short link before the page renders, so the
 * page (worker/render/handoff.ts) shows its campaign and its view counts under the link. The
 * link is read from D1 here, once, and put on the context: rendering itself stays synchronous and
 * keyed by what it is made of (worker/render/page-cache.ts). An unknown or expired slug is set as null
 * and the page answers 404.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { pageOf } from '../lib/page-of.ts';
import { resolveLink } from './links.ts';

/** On a short link's page, however the router spells it (lib/page-of.ts), reads its link; elsewhere nothing. */
export function shortLink(): MiddlewareHandler<AppEnv> {
  return async function shortLinkMiddleware(c, next) {
    const { page, slug } = pageOf(c);
    if (page === 'short') c.set('link', await resolveLink(c.env, slug ?? ''));
    await next();
  };
}
