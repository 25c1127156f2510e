/**
 * Puts the operator's configuration (docs/config.md) on the context for the page, and marks a
 * response served from the bundled demo config with `x-config: fallback`.
 */
import type { MiddlewareHandler } from 'hono';
import { type ConfigLoader, createConfigLoader } from '../config/load-config.ts';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';

export interface AppConfigOptions {
  /** Reads the config; one loader (and so one cache) per isolate by default. */
  load?: ConfigLoader;
}

const isolateLoader = createConfigLoader();

export function appConfig({ load = isolateLoader }: AppConfigOptions = {}): MiddlewareHandler<AppEnv> {
  return async function appConfigMiddleware(c, next) {
    const loaded = await load(c.env.KV, settingsOf(c.env).configCacheMs);
    c.set('config', loaded);
    await next();
    // Set in place: c.header() would re-wrap the finished response (security-headers.ts `completeResponses`).
    if (loaded.fallback) c.res.headers.set('x-config', 'fallback');
  };
}
