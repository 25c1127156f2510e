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
import { toBase64Url } from '../../shared/base64url.ts';
import type { VisitorSource } from './events.ts';

/** Development default; production refuses it. */
export const DEV_FUNNEL_SALT = 'lander-dev-funnel-salt';

let reported = false;

/** The key of the visitor hashes, or undefined when visitors are not counted. */
export function funnelSalt(env: Pick<Env, 'LANDER_ENV' | 'FUNNEL_SALT'>): string | undefined {
  if (env.LANDER_ENV !== 'production') return env.FUNNEL_SALT || DEV_FUNNEL_SALT;
  if (env.FUNNEL_SALT && env.FUNNEL_SALT !== DEV_FUNNEL_SALT) return env.FUNNEL_SALT;
  if (!reported) {
    reported = true;
    console.error('FUNNEL_SALT is not set (or is the development one): the funnel counts no visitors in production');
  }
  return undefined;
}

// One imported key per salt and isolate: importing costs more than the HMAC itself.
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(salt: string): Promise<CryptoKey> {
  let key = keys.get(salt);
  if (!key) {
    key = crypto.subtle.importKey('raw', new TextEncoder().encode(salt), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    keys.set(salt, key);
  }
  return key;
}

/** 128 bits of HMAC-SHA256(salt, day ‖ visitor), URL-safe base64: equal for one visitor within a UTC day only. */
export async function visitorHash(salt: string, day: string, source: VisitorSource): Promise<string> {
  const who = 'visitorId' in source ? `id\n${source.visitorId}` : `net\n${source.address}\n${source.agent}`;
  const mac = await crypto.subtle.sign('HMAC', await keyOf(salt), new TextEncoder().encode(`${day}\n${who}`));
  return toBase64Url(new Uint8Array(mac, 0, 16));
}
