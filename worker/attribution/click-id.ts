/**
 * Click ids the worker issues (docs/attribution.md, "Which clicks credit"): 8 random bytes and the
 * first 8 bytes of their keyed tag under `ATTRIBUTION_SALT`, 16 bytes in all, so an issued id has the
 * shape every click id has (22 characters of URL-safe base64) and the worker can tell one it issued
 * with no storage at all. Forging one means guessing a 64-bit tag.
 */
import { fromBase64Url, toBase64Url } from '../../shared/base64url.ts';
import { keyedTag } from '../lib/keyed-hash.ts';

const RANDOM_BYTES = 8;
const TAG_BYTES = 8;
// What the tag is of: the label keeps it apart from every other keyed hash of the same salt.
const LABEL = new TextEncoder().encode('click-id\n');

function tagOf(salt: string, random: Uint8Array): Promise<Uint8Array> {
  const message = new Uint8Array(LABEL.length + random.length);
  message.set(LABEL);
  message.set(random, LABEL.length);
  return keyedTag(salt, message, TAG_BYTES);
}

/** A new click id, signed under `salt`. */
export async function issueClickId(salt: string): Promise<string> {
  const random = crypto.getRandomValues(new Uint8Array(RANDOM_BYTES));
  const id = new Uint8Array(RANDOM_BYTES + TAG_BYTES);
  id.set(random);
  id.set(await tagOf(salt, random), RANDOM_BYTES);
  return toBase64Url(id);
}

/** Whether `clickId` is one this deployment issued: its tag verifies under `salt`. */
export async function isIssuedClickId(salt: string, clickId: string): Promise<boolean> {
  const bytes = fromBase64Url(clickId);
  if (bytes?.length !== RANDOM_BYTES + TAG_BYTES) return false;
  const tag = await tagOf(salt, bytes.subarray(0, RANDOM_BYTES));
  return crypto.subtle.timingSafeEqual(tag, bytes.subarray(RANDOM_BYTES));
}
