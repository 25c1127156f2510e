/**
 * Puts the configuration of the request's app (docs/config.md) on the context, and marks a response served from
 * the bundled demo config with `x-config: fallback`. Mounted once, by worker/index.ts, before the API
 * routes that read the configuration and the pages: a request reads it at most once. The loader never
 * throws: a store that fails or holds no valid document gives the demo config (load-config.ts).
 */
import type { MiddlewareHandler } from 'hono';
import { configKeyOf } from '../../shared/apps.ts';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { type ConfigLoader, createConfigLoader, type LoadedConfig } from './load-config.ts';

// One loader, and so one cache, per app and isolate: the default app's document is `config`,
// another app's `config:<app>` (docs/config.md#apps). An app's loader lives as long as the isolate.
const loaders = new Map<string, ConfigLoader>();

function loaderOf(app: string): ConfigLoader {
  let load = loaders.get(app);
  if (!load) {
    load = createConfigLoader({ key: configKeyOf(app) });
    loaders.set(app, load);
  }
  return load;
}

/** Starts reading `app`'s configuration (apps/request-app.ts `prefetch`); the middleware takes the read. */
export function startConfigRead(env: Env, app: string): Promise<LoadedConfig> {
  return loaderOf(app)(env.KV, settingsOf(env).configCacheMs);
}

export function appConfig(): MiddlewareHandler<AppEnv> {
  return async function appConfigMiddleware(c, next) {
    const app = c.get('app');
    const started = c.get('prefetched');
    const loaded = await (started?.app === app
      ? started.config
      : loaderOf(app)(c.env.KV, settingsOf(c.env).configCacheMs));
    c.set('config', loaded);
    await next();
    // Set in place: c.header() would re-wrap the finished response (lib/headers.ts `complete`).
    if (loaded.fallback) c.res.headers.set('x-config', 'fallback');
  };
}
