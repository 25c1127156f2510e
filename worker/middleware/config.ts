/**
 * Puts the operator's configuration (docs/config.md) on the context for the page, and marks a
 * response served from the bundled demo config with `x-config: fallback`.
 */
import type { MiddlewareHandler } from 'hono';
import { type ConfigLoader, createConfigLoader, type LoadedConfig } from '../config/load-config.ts';
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

/** This isolate's configuration for `env`: cached, never rejects (the demo config on failure). */
export function loadAppConfig(env: Env): Promise<LoadedConfig> {
  return isolateLoader(env.KV, cacheMs(env));
}

export function appConfig({ load = isolateLoader }: AppConfigOptions = {}): MiddlewareHandler<AppEnv> {
  return async function appConfigMiddleware(c, next) {
    // Already read for this request when a kept page was looked for (kept-pages.ts).
    const loaded = c.get('config') ?? (await load(c.env.KV, cacheMs(c.env)));
    c.set('config', loaded);
    await next();
    if (loaded.fallback) c.header('x-config', 'fallback');
  };
}
