/**
 * Puts the operator's configuration (PRODUCT.md §6) on the context for the page, and marks a
 * response served from the bundled demo config with `x-config: fallback`.
 */
import type { MiddlewareHandler } from 'hono';
import { type ConfigLoader, createConfigLoader } from '../config/load-config.ts';
import type { AppEnv } from '../env.ts';

export interface AppConfigOptions {
  /** Reads the config; one loader (and so one cache) per isolate by default. */
  load?: ConfigLoader;
}

const isolateLoader = createConfigLoader();

/** `CONFIG_CACHE_SECONDS` from wrangler.toml; anything unreadable means no cache. */
function cacheMs(env: Env): number {
  const seconds = Number(env.CONFIG_CACHE_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
}

export function appConfig({ load = isolateLoader }: AppConfigOptions = {}): MiddlewareHandler<AppEnv> {
  return async function appConfigMiddleware(c, next) {
    const loaded = await load(c.env.KV, cacheMs(c.env));
    c.set('config', loaded);
    await next();
    if (loaded.fallback) c.header('x-config', 'fallback');
  };
}
