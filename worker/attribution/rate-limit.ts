/**
 * Rate limiting per network (docs/attribution.md) with Workers' Rate Limiting binding: the key is
 * the keyed hash of the network, so neither the address nor the network leaves the worker in clear.
 * A limiter that fails, or has not answered within `LIMITER_BUDGET_MS`, lets the request through:
 * attribution degrading is better than refusing it (docs/reliability.md).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { LIMITER_BUDGET_MS } from '../reliability/budget.ts';
import { settingsOf } from '../settings.ts';
import { networkOf } from './network.ts';

/** Limits `/api/a/*` per network with the `ATTRIBUTION_LIMITER` binding (429 over the limit). */
export function rateLimitPerNetwork(): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    // An environment without the binding (a unit test's app.request) is not limited.
    const binding: RateLimit | undefined = c.env.ATTRIBUTION_LIMITER;
    const salt = settingsOf(c.env).attributionSalt;
    if (binding && salt) {
      const network = networkOf(c.req.header('cf-connecting-ip'));
      const key = network ? await keyedHash(salt, `limit\n${network.prefix}`) : 'no-network';
      const outcome = await withinBudget(binding.limit({ key }), LIMITER_BUDGET_MS).catch((error: unknown) => {
        console.error('Attribution rate limiter failed', error);
        return { success: true };
      });
      if (!outcome.success) return c.json({ error: 'Too many requests from this network; try again in a minute' }, 429);
    }
    await next();
  };
}
