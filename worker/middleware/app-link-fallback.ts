/**
 * An app link that a browser opens means the app is not installed: iOS and Android hand Universal
 * Links and App Links to the app when it is. So a visitor who tapped "Open the app" without the app
 * arrives at `https://<universal_link_domain>/open/?channel=…`. When Lander serves that domain too,
 * it sends them to the campaign page with the same query — the download button and the inviter —
 * instead of a 404 (PRODUCT.md §5.1, §6). Only paths Lander has no page for are redirected, and the
 * target is always `/landing` on this site: the request contributes its query, never the target.
 */
import type { MiddlewareHandler } from 'hono';
import { matchRoutes } from 'react-router-dom';
import { routes } from '../../client/app/routes.tsx';
import type { AppEnv } from '../env.ts';

export const APP_LINK_TARGET = '/landing';

/** apple-app-site-association path patterns: `*` any characters (none included), `?` one. */
export function appLinkPattern(pattern: string): RegExp {
  const body = [...pattern]
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 's');
}

/** Whether Lander renders a screen of its own at `pathname` (anything but the not-found route). */
function isOwnPage(pathname: string): boolean {
  const matches = matchRoutes(routes, pathname) ?? [];
  return matches.length > 0 && matches.at(-1)?.route.id !== 'not-found';
}

export function appLinkFallback(): MiddlewareHandler<AppEnv> {
  const compiled = new WeakMap<readonly string[], RegExp[]>();
  return async function appLinkFallbackMiddleware(c, next) {
    const paths = c.get('config').config.links.paths;
    let patterns = compiled.get(paths);
    if (!patterns) {
      patterns = paths.map(appLinkPattern);
      compiled.set(paths, patterns);
    }
    const { pathname, search } = new URL(c.req.url);
    if (!patterns.some((pattern) => pattern.test(pathname)) || isOwnPage(pathname)) return next();
    return c.redirect(`${APP_LINK_TARGET}${search}`, 307);
  };
}
