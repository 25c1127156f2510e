/**
 * An app link that a browser opens means the app is not installed: iOS and Android hand Universal
 * Links and App Links to the app when it is. So a visitor who tapped the app link without the app
 * arrives at `https://<universal_link_domain>/open/?d=…`. When Lander serves that domain too, the
 * request is answered instead of a 404 (docs/screens.md, docs/config.md): where it goes is decided by
 * worker/render/app-link-answer.ts. Only paths Lander has no page for are app link paths here.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';

/** Where a device with no download goes: the campaign page on this site, the request's campaign kept. */
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

/** Whether `c` asks for a configured app link path (the caller asks only for paths Lander has no page for). */
export function atAppLinkPath(c: Context<AppEnv>): boolean {
  const { paths } = c.get('config').config.links;
  // Hono's path is the URL's, decoded where it has escapes: only those need the URL's own spelling.
  const pathname = c.req.url.includes('%') ? new URL(c.req.url).pathname : c.req.path;
  return paths.some((pattern) => matchesAppLinkPath(pattern, pathname));
}
