/** The admin API's token (docs/operators.md): `ADMIN_TOKEN`, or in development only the built-in one. */
import { devSecret } from '../lib/dev-secret.ts';

/** Development default; production refuses it. */
export const DEV_ADMIN_TOKEN = 'lander-dev-admin';

/** The admin token of `env`, or undefined when there is none to accept. */
export function adminToken(env: Pick<Env, 'LANDER_ENV' | 'ADMIN_TOKEN'>): string | undefined {
  return devSecret(env.LANDER_ENV, env.ADMIN_TOKEN, DEV_ADMIN_TOKEN);
}
