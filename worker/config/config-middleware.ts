/**
 * Puts the operator's configuration (docs/config.md) on the context, and marks a response served from
 * the bundled demo config with `x-config: fallback`. Mounted once, by worker/index.ts, before the API
 * routes that read the configuration and the pages: a request reads it at most once. The loader never
 * throws: a store that fails or holds no valid document gives the demo config (load-config.ts).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import { createConfigLoader } from './load-config.ts';

// One loader, and so one cache, per isolate.
const load = createConfigLoader();

export function appConfig(): MiddlewareHandler<AppEnv> {
  return async function appConfigMiddleware(c, next) {
    const loaded = await load(c.env.KV, settingsOf(c.env).configCacheMs);
    c.set('config', loaded);
    await next();
    // Set in place: c.header() would re-wrap the finished response (lib/headers.ts `complete`).
    if (loaded.fallback) c.res.headers.set('x-config', 'fallback');
  };
}
