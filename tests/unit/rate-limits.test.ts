/**
 * The limits the 429's `RateLimit-Policy` and the busy-network flag name are the ones wrangler.toml
 * gives the Rate Limiting bindings (docs/attribution.md, "Rate limits"; a short link's password tries,
 * docs/smart-links.md#links), in every environment.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { CLIENT_POLICY, NETWORK_POLICY } from '../../worker/attribution/rate-limit.ts';
import { PASSWORD_TRIES_PER_MINUTE } from '../../worker/campaign/link-password.ts';
import { BUSY_NETWORK_INSTALLS } from '../../worker/fraud/busy-network.ts';

/** A wrangler.toml `[[ratelimits]]` entry as wrangler reads it. */
interface RateLimitConfig {
  name: string;
  namespace_id: string;
  simple: { limit: number; period: number };
}

const expected = [
  { name: CLIENT_POLICY.binding, simple: { limit: CLIENT_POLICY.limit, period: CLIENT_POLICY.period } },
  { name: NETWORK_POLICY.binding, simple: { limit: NETWORK_POLICY.limit, period: NETWORK_POLICY.period } },
  { name: 'NETWORK_INSTALL_WATCH', simple: { limit: BUSY_NETWORK_INSTALLS, period: 60 } },
  { name: 'LINK_PASSWORD_LIMITER', simple: { limit: PASSWORD_TRIES_PER_MINUTE, period: 60 } },
];

describe.each(['', 'production'])('wrangler.toml [env %s]', (env) => {
  it('binds each limiter with the limit and period the worker names', () => {
    const config = unstable_readConfig({
      config: join(import.meta.dirname, '../../wrangler.toml'),
      env: env || undefined,
    });
    const ratelimits = config.ratelimits as RateLimitConfig[];
    const bound = ratelimits.map(({ name, simple }) => ({ name, simple }));
    expect(bound).toEqual(expected);
    // Each binding counts in a namespace of its own.
    expect(new Set(ratelimits.map((binding) => binding.namespace_id)).size).toBe(expected.length);
  });
});
