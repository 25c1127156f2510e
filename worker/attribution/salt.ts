/**
 * The attribution salt (docs/attribution.md): the `ATTRIBUTION_SALT` secret keys every hash of an
 * address, a network, an install id or a visitor id that attribution stores. Development has a
 * built-in default so a fresh checkout works; production never uses it: without a salt of its own,
 * attribution answers 503 and the page goes on without it.
 */

import { devSecret } from '../lib/dev-secret.ts';

/** Development default; production refuses it. */
export const DEV_ATTRIBUTION_SALT = 'lander-dev-attribution-salt';

export function attributionSalt(env: Pick<Env, 'LANDER_ENV'> & { ATTRIBUTION_SALT?: string }): string | undefined {
  return devSecret(env.LANDER_ENV, env.ATTRIBUTION_SALT, DEV_ATTRIBUTION_SALT);
}
