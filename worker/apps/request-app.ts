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
import { DEFAULT_APP } from '../../shared/apps.ts';
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

/** Names the request's app on the context, before any route reads it. */
export function requestApp(): MiddlewareHandler<AppEnv> {
  return async function requestAppMiddleware(c, next) {
    const settings = settingsOf(c.env);
    const url = new URL(c.req.url);
    const apps = await requestApps(c);
    const resolved = resolveApp(apps, {
      host: url.host,
      hostname: url.hostname,
      pathname: url.pathname,
      development: settings.env !== 'production',
    });
    if (!resolved) {
      c.header('cache-control', 'no-store');
      if (/^\/api(\/|$)/.test(pathWithinApp(url.pathname)))
        return c.json({ error: `No app at ${url.host}${url.pathname}` }, 404);
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
