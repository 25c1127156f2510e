/**
 * Puts the operator's configuration (docs/config.md) on the context for the page, and marks a
 * response served from the bundled demo config with `x-config: fallback`.
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
