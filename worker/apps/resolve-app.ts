/**
 * Which app a request is for (docs/routes.md#apps), from its host and path alone:
 * - a host an app lists is that app's, and takes no `/@<app>` prefix;
 * - on a shared host — one the default app lists, any host when no app lists one (no registry
 *   included), `localhost` and `127.0.0.1` in development — a `/@<app>` prefix names the app and the
 *   path without it is the app's; no prefix is the default app;
 * - any other host, and a prefix that names no app, is no app: the not-found answer.
 */
import { APP_ID_PATTERN, DEFAULT_APP, splitAppPrefix } from '../../shared/apps.ts';
import type { Apps } from './registry-loader.ts';

export interface ResolvedApp {
  app: string;
  /** The path the app's routes see: the request's, without the prefix. */
  path: string;
  /** What links to the app's pages and API start with on this host: `/@pebble`, or ''. */
  base: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1']);

export interface ResolveInput {
  /** The URL's host, with its port when it has one. */
  host: string;
  hostname: string;
  pathname: string;
  development: boolean;
}

/** The request's app, or null when none answers at this host and path. */
export function resolveApp(apps: Apps, { host, hostname, pathname, development }: ResolveInput): ResolvedApp | null {
  const owner = apps.hostApps.get(host) ?? apps.hostApps.get(hostname);
  const prefix = splitAppPrefix(pathname);
  if (owner !== undefined && owner !== DEFAULT_APP) return prefix ? null : { app: owner, path: pathname, base: '' };
  const shared = owner === DEFAULT_APP || apps.hostApps.size === 0 || (development && LOCAL_HOSTS.has(hostname));
  if (!shared) return null;
  if (!prefix) return { app: DEFAULT_APP, path: pathname, base: '' };
  if (!APP_ID_PATTERN.test(prefix.app) || !apps.ids.has(prefix.app)) return null;
  return { app: prefix.app, path: prefix.path, base: `/@${prefix.app}` };
}

/**
 * The path Hono routes (its `getPath` option, worker/index.ts): the URL's path without any `/@<app>`
 * prefix, so every route and wing sees the app's own paths. Whether the prefix names an app, and
 * which, the app middleware reads again from the URL (request-app.ts).
 */
export function pathWithinApp(path: string): string {
  return splitAppPrefix(path)?.path ?? path;
}
