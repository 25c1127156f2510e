/**
 * A link's preview card (docs/smart-links.md#previews): the 1200×630 PNG drawn from the app's icon and
 * the link's text by `npm run link -- --card` (scripts/lib/link-card.ts; satori and resvg do not fit
 * the worker's size budget), uploaded with `PUT /api/links/<slug>/card` (`{ "png": <base64> }`), kept in R2 under the app and
 * slug, and served at `/s/<slug>/card.png` for as long as a previewer cares to keep it — while its link
 * is live and open: the card shows the link's words, and an expired or protected link shows none
 * of them (render/link-gate.ts).
 */
import type { Context } from 'hono';
import * as v from 'valibot';
import { CARD_HEIGHT, CARD_WIDTH } from '../../shared/link-preview.ts';
import type { AppEnv } from '../env.ts';
import { readLink } from './links.ts';

/** The largest card kept: previewers fetch it on every share. */
export const MAX_CARD_BYTES = 300_000;

/** The most bytes of `PUT /api/links/<slug>/card`'s body: the largest card in base64, and its JSON. */
export const MAX_CARD_BODY = Math.ceil(MAX_CARD_BYTES / 3) * 4 + 64;

/** The body of `PUT /api/links/<slug>/card`: the PNG in base64. */
export const CardBodySchema = v.strictObject({
  png: v.pipe(
    v.string(),
    v.maxLength(MAX_CARD_BODY, `png: larger than ${MAX_CARD_BYTES} bytes`),
    v.base64('png: not base64'),
  ),
});

/** `PUT /api/links/<slug>/card`'s answer: where the card is served. */
export const CardAnswerSchema = v.strictObject({ card: v.pipe(v.string(), v.url()) });

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Where the card of `app`'s link `slug` is kept in R2 (the owner in the key: docs/folders.md). */
export const cardKey = (app: string, slug: string): string => `link-cards/${app}/${slug}.png`;

/** Why `bytes` is not a card: not a PNG, or not 1200×630, or too large; null when it is one. */
export function refusedCard(bytes: Uint8Array): string | null {
  if (bytes.byteLength > MAX_CARD_BYTES) return `card: larger than ${MAX_CARD_BYTES} bytes`;
  if (bytes.byteLength < 24 || PNG_SIGNATURE.some((byte, at) => bytes[at] !== byte)) return 'card: not a PNG';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [width, height] = [view.getUint32(16), view.getUint32(20)];
  if (width !== CARD_WIDTH || height !== CARD_HEIGHT) {
    return `card: ${width}×${height}, not ${CARD_WIDTH}×${CARD_HEIGHT}`;
  }
  return null;
}

/** Keeps `bytes` (checked by `refusedCard`) as the card of `app`'s link `slug`. */
export async function putCard(env: Env, app: string, slug: string, bytes: Uint8Array): Promise<void> {
  await env.EXPORTS.put(cardKey(app, slug), bytes, { httpMetadata: { contentType: 'image/png' } });
}

/** Removes the card of `app`'s link `slug`, if it has one. */
export const deleteCard = (env: Env, app: string, slug: string): Promise<void> =>
  env.EXPORTS.delete(cardKey(app, slug));

/**
 * `GET /s/<slug>/card.png`: the kept card, cached for a year by anyone (a new card is a new upload
 * and the previewers' caches are theirs), with its ETag; `If-None-Match` on it answers 304. A link
 * that is expired, protected by a password or gone has no card to show: 404, as for no card.
 */
export async function serveCard(c: Context<AppEnv>, slug: string): Promise<Response> {
  const link = await readLink(c.env, c.get('app'), slug);
  if (link === 'unavailable')
    return c.text('This link cannot be read just now: try again', 503, { 'retry-after': '5' });
  if (!link || link === 'expired' || link.hasPassword) return c.text('No card for this link', 404);
  const object = await c.env.EXPORTS.get(cardKey(c.get('app'), slug), {
    onlyIf: c.req.raw.headers,
  });
  if (!object) return c.text('No card for this link', 404);
  const headers = {
    'Content-Type': 'image/png',
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: object.httpEtag,
  };
  // R2 leaves out the body when the request's condition on it fails: the copy asked about is current.
  if (!('body' in object)) return c.body(null, 304, headers);
  return c.body(object.body, 200, { ...headers, 'Content-Length': String(object.size) });
}
