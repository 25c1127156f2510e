/**
 * The day's visitor hash (docs/operators.md#visitors): a browser is one visitor a day, known by its
 * address and agent — what its very first view carries too. (The page's visitor id exists only once
 * the first page has loaded, so keying by it made that first view and the reload or tap after it two
 * visitors.) Hashed here, on the request side, with a keyed HMAC over the operator's day, so what
 * reaches the queue and D1 changes every day and leads back to no one; the address and agent
 * themselves go nowhere.
 *
 * The key is the `FUNNEL_SALT` secret; development falls back to a built-in one. Production without
 * the secret counts events but no visitors (logged once per isolate): a known key would make the
 * hashes reversible by anyone who guesses an address.
 */

import type { VisitorSource } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';

/** 128 bits of HMAC-SHA256(salt, day ‖ address ‖ agent), URL-safe base64: equal for one visitor within one day only. */
export async function visitorHash(salt: string, day: string, source: VisitorSource): Promise<string> {
  return keyedHash(salt, `${day}\nnet\n${source.address}\n${source.agent}`);
}
