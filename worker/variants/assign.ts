/**
 * Which variant of a link a visitor sees (docs/smart-links.md#assignment): a keyed hash of the link
 * and the visitor id, laid on the weights. The same visitor on the same link gets the same variant in
 * every isolate and on every visit, with nothing stored; without the key no one can tell from an id
 * which variant it gets, or choose an id to get one.
 */
import { variantAt } from '../../shared/variants.ts';
import { appSalt } from '../apps/app-keys.ts';
import { keyedTag } from '../lib/keyed-hash.ts';

const encoder = new TextEncoder();
// 48 bits of the hash make the point on [0, 1): a bias below 2⁻³⁵ on any weight.
const BYTES = 6;
const SPAN = 2 ** (8 * BYTES);

/** The key of app `app`'s assignments, apart from every other use of the deployment's `salt`. */
export const assignmentKey = (salt: string, app: string): string => `${appSalt(salt, app)}\u0000variants`;

/** The point on [0, 1) of `visitorId` on link `slug` under `key` (`assignmentKey`). */
async function pointOf(key: string, slug: string, visitorId: string): Promise<number> {
  const text = encoder.encode(`${slug}\u0000${visitorId}`);
  const tag = await keyedTag(key, new Uint8Array(text), BYTES);
  let value = 0;
  for (const byte of tag) value = value * 256 + byte;
  return value / SPAN;
}

/** The index of the variant `visitorId` sees on link `slug`, of variants with these `weights`. */
export async function assignVariant(
  key: string,
  slug: string,
  visitorId: string,
  weights: readonly number[],
): Promise<number> {
  return variantAt(weights, await pointOf(key, slug, visitorId));
}
