/**
 * Rate limiting per network (docs/attribution.md) with Workers' Rate Limiting binding: the key is
 * the keyed hash of the network, so neither the address nor the network leaves the worker in clear.
 * A limiter that fails lets the request through: attribution degrading is better than refusing it.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { settingsOf } from '../settings.ts';
import { networkOf } from './network.ts';

export interface RateLimitOptions {
  /** The binding; the environment's `ATTRIBUTION_LIMITER` by default. */
  limiter?: (env: Env) => RateLimit | undefined;
}

export function rateLimitPerNetwork({
  limiter = (env) => env.ATTRIBUTION_LIMITER,
}: RateLimitOptions = {}): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const binding = limiter(c.env);
    const salt = settingsOf(c.env).attributionSalt;
    if (binding && salt) {
      const network = networkOf(c.req.header('cf-connecting-ip'));
      const key = network ? await keyedHash(salt, `limit\n${network.prefix}`) : 'no-network';
      const outcome = await binding.limit({ key }).catch((error: unknown) => {
        console.error('Attribution rate limiter failed', error);
        return { success: true };
      });
      if (!outcome.success) return c.json({ error: 'Too many requests from this network; try again in a minute' }, 429);
    }
    await next();
  };
}
