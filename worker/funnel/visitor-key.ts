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
import { keyedHash } from '../lib/keyed-hash.ts';
import type { VisitorSource } from './events.ts';

/** 128 bits of HMAC-SHA256(salt, day ‖ visitor), URL-safe base64: equal for one visitor within a UTC day only. */
export async function visitorHash(salt: string, day: string, source: VisitorSource): Promise<string> {
  const who = 'visitorId' in source ? `id\n${source.visitorId}` : `net\n${source.address}\n${source.agent}`;
  return keyedHash(salt, `${day}\n${who}`);
}
