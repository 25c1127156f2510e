/**
 * The app a request is for (docs/routes.md#apps): every wing reads it as `c.get('app')`, an app id,
 * and `c.get('appBase')`, what links to the app start with on this host (`/@pebble`, or ''). A
 * deployment with no registry has the one app `default`, which keeps every stored key and name it had.
 *
 * The app comes from the URL's host and its `/@<app>` prefix (resolve-app.ts). Hono routes the path
 * without the prefix (`getPath`, worker/index.ts); here the request itself becomes the app's own
 * (`/@pebble/landing` → `/landing`), so everything after reads the URL the app's routes see. A host
 * or prefix that names no app is the not-found answer, for people and bots alike, never a redirect.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { ApkParents } from '../../shared/apk-parent.ts';
import { DEFAULT_APP } from '../../shared/apps.ts';
import type { LoadedConfig } from '../config/load-config.ts';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { type Apps, createAppsLoader } from './registry-loader.ts';
import { pathWithinApp, resolveApp } from './resolve-app.ts';

export { DEFAULT_APP };

// One loader, and so one cache, per isolate.
const loadApps = createAppsLoader();

/** The not-found page of a host or prefix no app answers: both languages, no script, no link. */
export const NO_APP_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Page Not Found · 页面未找到</title></head><body><main><h1>404</h1><p>Page Not Found</p><p lang="zh-CN">页面未找到</p></main></body></html>';

/** The registry as this isolate has it for `c` (a kept copy within `CONFIG_CACHE_SECONDS`). */
export function requestApps(c: Context<AppEnv>): Promise<Apps> {
  return loadApps(c.env.KV, settingsOf(c.env).configCacheMs);
}

export interface RequestAppOptions {
  /**
   * Starts the reads a page of `app` waits for (its configuration, its APK parents), called with the
   * app the request most likely is for before the registry is read: under a slow store the reads then
   * wait together, within one KV budget, instead of one after another (docs/config.md). The reads are
   * kept on the context (`prefetched`) and taken by their middleware when the app is the one guessed.
   */
  prefetch?: (env: Env, app: string) => { config: Promise<LoadedConfig>; parents: Promise<ApkParents> };
}

/** Names the request's app on the context, before any route reads it. */
export function requestApp({ prefetch }: RequestAppOptions = {}): MiddlewareHandler<AppEnv> {
  return async function requestAppMiddleware(c, next) {
    const settings = settingsOf(c.env);
    const url = new URL(c.req.url);
    const input = {
      host: url.host,
      hostname: url.hostname,
      pathname: url.pathname,
      development: settings.env !== 'production',
    };
    const within = pathWithinApp(url.pathname);
    // Build files are the deployment's, as its static files are: no app, no registry read (docs/routes.md#apps).
    if (within.startsWith('/assets/')) {
      c.set('app', DEFAULT_APP);
      c.set('appBase', '');
      return next();
    }
    const api = /^\/api(\/|$)/.test(within);
    // Only a page reads its app's configuration and parents whatever its path: the API calls that
    // read the configuration are fewer than those that do not.
    const page = (c.req.method === 'GET' || c.req.method === 'HEAD') && !api;
    const waits = page && prefetch && !loadApps.kept(settings.configCacheMs);
    const likely = waits ? resolveApp(loadApps.lastKnown(), input) : null;
    if (likely && prefetch) c.set('prefetched', { app: likely.app, ...prefetch(c.env, likely.app) });
    const apps = await requestApps(c);
    const resolved = resolveApp(apps, input);
    if (!resolved) {
      c.header('cache-control', 'no-store');
      if (api) return c.json({ error: `No app at ${url.host}${url.pathname}` }, 404);
      return c.html(NO_APP_PAGE, 404);
    }
    c.set('app', resolved.app);
    c.set('appBase', resolved.base);
    if (resolved.base) {
      url.pathname = resolved.path;
      c.req.raw = new Request(url, c.req.raw);
    }
    await next();
  };
}
