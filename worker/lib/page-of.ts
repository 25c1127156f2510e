/**
 * Which page a request is for (docs/routes.md), read from the one route table with React Router's own
 * matcher: the `page` of the deepest match's handle, and the page's parameters. Every spelling the
 * router accepts — any case, a trailing slash, an escaped letter — is the same page for the render,
 * the funnel, the carrier copy and the short link, because none of them matches paths by hand.
 * Computed once per request (kept on the context) and remembered per path.
 */
import type { Context } from 'hono';
import { matchRoutes } from 'react-router-dom';
import type { RouteHandle } from '../../client/app/route-handle.ts';
import { routes } from '../../client/app/routes.tsx';
import type { AppEnv, PageIdentity } from '../env.ts';
import { boundedCache, CACHE_SHARES, stringBytes } from './bounded-cache.ts';

const NOT_FOUND: PageIdentity = Object.freeze({ page: 'not-found' });

const identities = boundedCache<PageIdentity>({
  maxBytes: CACHE_SHARES.pageIdentities,
  sizeOf: (identity) => 64 + stringBytes(identity.carrier ?? null) + stringBytes(identity.slug ?? null),
});

/** The page the route table serves at `pathname` (the URL's own spelling, escapes included). */
export function pageAt(pathname: string): PageIdentity {
  let identity = identities.get(pathname);
  if (!identity) {
    const match = matchRoutes(routes, pathname)?.at(-1);
    const page = (match?.route.handle as RouteHandle | undefined)?.page;
    const { carrier, slug } = match?.params ?? {};
    identity = page ? Object.freeze({ page, ...(carrier && { carrier }), ...(slug && { slug }) }) : NOT_FOUND;
    identities.set(pathname, identity);
  }
  return identity;
}

/** The page `c` asks for, read once per request. */
export function pageOf(c: Context<AppEnv>): PageIdentity {
  let identity = c.get('page');
  if (!identity) {
    identity = pageAt(new URL(c.req.url).pathname);
    c.set('page', identity);
  }
  return identity;
}
