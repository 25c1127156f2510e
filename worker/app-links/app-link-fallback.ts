/**
 * An app link that a browser opens means the app is not installed: iOS and Android hand Universal
 * Links and App Links to the app when it is. So a visitor who tapped "Open the app" without the app
 * arrives at `https://<universal_link_domain>/open/?channel=…`. When Lander serves that domain too,
 * it sends them to the campaign page with the same query — the download button and the inviter —
 * instead of a 404 (docs/screens.md, docs/config.md). Only paths Lander has no page for are redirected, and the
 * target is always `/landing` on this site: the request contributes its query, never the target.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';

export const APP_LINK_TARGET = '/landing';

/**
 * Whether `path` matches an apple-app-site-association path pattern: `*` any characters (none
 * included), `?` one, anything else itself. Greedy with one step back per `*`, so at worst length ×
 * length steps: a long hostile path against any pattern stays cheap (no regular expression).
 */
export function matchesAppLinkPath(pattern: string, path: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < path.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === path[t])) {
      p += 1;
      t += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      p += 1;
      resume = t;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      t = resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p += 1;
  return p === pattern.length;
}

/**
 * The redirect to `/landing` for a page Lander does not have (the not-found page, render/render-page.tsx)
 * at a configured app link path, or null when the path is none of them.
 */
export function appLinkRedirect(c: Context<AppEnv>): Response | null {
  const { paths } = c.get('config').config.links;
  // Hono's path is the URL's, decoded where it has escapes: only those need the URL's own spelling.
  const pathname = c.req.url.includes('%') ? new URL(c.req.url).pathname : c.req.path;
  if (!paths.some((pattern) => matchesAppLinkPath(pattern, pathname))) return null;
  return c.redirect(`${APP_LINK_TARGET}${new URL(c.req.url).search}`, 307);
}
