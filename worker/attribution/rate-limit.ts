/**
 * Rate limits of `/api/a/*` (docs/attribution.md, "Rate limits") with Workers' Rate Limiting
 * bindings. A call spends, in order, its client's budget (`CLIENT_LIMITER`: one client on one
 * network, limit-keys.ts) and its network's far higher ceiling (`NETWORK_LIMITER`), each apart for
 * the page's taps and the app's calls; so a crowd of phones behind one address each has its own
 * budget, one abusive client is held by its own, and a client that rotates its ids is held by the
 * ceiling. A client already refused spends nothing of its network's ceiling, so it cannot use the
 * crowd's up. A refusal is 429 with the IETF `RateLimit-Policy` / `RateLimit` fields and
 * `Retry-After`. A limiter that fails, or has not answered within `LIMITER_BUDGET_MS`, lets the
 * request through: attribution degrading is better than refusing it (docs/reliability.md).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { LIMITER_BUDGET_MS, messageOf } from '../reliability/budget.ts';
import { settingsOf } from '../settings.ts';
import { type LimitKeys, limitKeys } from './limit-keys.ts';

/** A limit as wrangler.toml's `[[ratelimits]]` sets it (tests/unit/rate-limits.test.ts holds the two equal). */
export interface Policy {
  /** The policy's name in the `RateLimit` fields. */
  name: 'client' | 'network';
  binding: 'CLIENT_LIMITER' | 'NETWORK_LIMITER';
  /** Calls per window. */
  limit: number;
  /** The window in seconds: the binding takes only 10 or 60. */
  period: 10 | 60;
}

/** One client on one network: a minute of taps is far more than a person makes. */
export const CLIENT_POLICY: Policy = { name: 'client', binding: 'CLIENT_LIMITER', limit: 60, period: 60 };
/** One network, whoever calls: fifty calls a second, the backstop against rotated ids. */
export const NETWORK_POLICY: Policy = { name: 'network', binding: 'NETWORK_LIMITER', limit: 3000, period: 60 };

const POLICIES = [CLIENT_POLICY, NETWORK_POLICY] as const;

/** The first policy that refuses the call, or null when all let it through. */
async function refusingPolicy(env: Env, keys: LimitKeys): Promise<Policy | null> {
  // One after the other: a client over its own budget must not spend its network's.
  for (const [policy, key] of [
    [CLIENT_POLICY, keys.client],
    [NETWORK_POLICY, keys.network],
  ] as const) {
    const { success } = await env[policy.binding].limit({ key });
    if (!success) return policy;
  }
  return null;
}

/**
 * Seconds until the window of `policy` ends, at least 1: the bindings count in windows of their
 * period; this reads them as aligned to the clock, as the local emulation counts them.
 */
export function secondsLeft(policy: Policy, nowMs: number): number {
  const periodMs = policy.period * 1000;
  return Math.max(1, Math.ceil((periodMs - (nowMs % periodMs)) / 1000));
}

/** The 429 for a call `policy` refused (draft-ietf-httpapi-ratelimit-headers; RFC 9110 `Retry-After`). */
function refused(c: Context<AppEnv>, policy: Policy): Response {
  const wait = secondsLeft(policy, Date.now());
  c.header('ratelimit-policy', POLICIES.map((p) => `"${p.name}";q=${p.limit};w=${p.period}`).join(', '));
  c.header('ratelimit', `"${policy.name}";r=0;t=${wait}`);
  c.header('retry-after', String(wait));
  const who = policy === CLIENT_POLICY ? 'this device' : 'this network';
  return c.json({ error: `Too many requests from ${who}; try again in ${wait} s` }, 429);
}

/** Limits `/api/a/*` per client and per network (429 over either). */
export function rateLimitPerNetwork(): MiddlewareHandler<AppEnv> {
  return async function rateLimitMiddleware(c, next) {
    const salt = settingsOf(c.env).attributionSalt;
    // An environment without the bindings (a unit test's app.request) is not limited.
    if (salt && c.env.CLIENT_LIMITER && c.env.NETWORK_LIMITER) {
      const keys = await limitKeys(c, salt);
      // Both calls share one budget: a hanging limiter delays a call by LIMITER_BUDGET_MS at most.
      const policy = await withinBudget(refusingPolicy(c.env, keys), LIMITER_BUDGET_MS, () => null).catch(
        (error: unknown) => {
          console.error('Attribution rate limiter failed', messageOf(error));
          return null;
        },
      );
      if (policy) return refused(c, policy);
    }
    await next();
  };
}
