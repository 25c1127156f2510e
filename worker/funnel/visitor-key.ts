/**
 * The day's visitor hash (docs/operators.md): visitors are counted once a day, by visitor id when the
 * page has one, else by address and agent. Either is hashed here, on the request side, with a keyed
 * HMAC over the UTC day, so what reaches the queue and D1 changes every day and leads back to no one;
 * the id, address and agent themselves go nowhere.
 *
 * The key is the `FUNNEL_SALT` secret; development falls back to a built-in one. Production without
 * the secret counts events but no visitors (logged once per isolate): a known key would make the
 * hashes reversible by anyone who guesses an address.
 */
import { devSecret } from '../lib/dev-secret.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import type { VisitorSource } from './events.ts';

/** Development default; production refuses it. */
export const DEV_FUNNEL_SALT = 'lander-dev-funnel-salt';

let reported = false;

/** The key of the visitor hashes, or undefined when visitors are not counted. */
export function funnelSalt(env: Pick<Env, 'LANDER_ENV' | 'FUNNEL_SALT'>): string | undefined {
  const salt = devSecret(env.LANDER_ENV, env.FUNNEL_SALT, DEV_FUNNEL_SALT);
  if (salt) return salt;
  if (!reported) {
    reported = true;
    console.error('FUNNEL_SALT is not set (or is the development one): the funnel counts no visitors in production');
  }
  return undefined;
}

/** 128 bits of HMAC-SHA256(salt, day ‖ visitor), URL-safe base64: equal for one visitor within a UTC day only. */
export async function visitorHash(salt: string, day: string, source: VisitorSource): Promise<string> {
  const who = 'visitorId' in source ? `id\n${source.visitorId}` : `net\n${source.address}\n${source.agent}`;
  return keyedHash(salt, `${day}\n${who}`);
}
