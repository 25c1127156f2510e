/**
 * Changing and removing a short link (docs/operators.md): its expiry can be moved (or removed: the
 * link then never expires), and the link can be deleted, after which `/s/<slug>` is the 404 page.
 * Its campaign cannot change: the token printed on posters and QR codes is what it is.
 */
import * as v from 'valibot';
import type { StoredLink } from '../facts.ts';
import { type LinkRow, linkOf, SLUG } from './links.ts';

/** The body of `PATCH /api/links/<slug>`. */
export const LinkChangeSchema = v.strictObject({
  expiresAt: v.nullable(
    v.pipe(
      v.string(),
      v.isoTimestamp('expiresAt is an ISO 8601 time with its zone, e.g. 2027-01-01T00:00:00Z'),
      v.transform((text) => Date.parse(text)),
    ),
  ),
});
export type LinkChange = v.InferOutput<typeof LinkChangeSchema>;

/** The link stored under `slug`, expired or not; null when there is none. */
export async function storedLink(env: Env, slug: string): Promise<StoredLink | null> {
  if (!SLUG.test(slug)) return null;
  const row = await env.FUNNEL_DB.prepare('SELECT * FROM funnel_links WHERE slug = ?1').bind(slug).first<LinkRow>();
  return row ? linkOf(row) : null;
}

/** Gives `link` the expiry `change` asks for; a time in the past is refused. */
export async function changeLink(
  env: Env,
  link: StoredLink,
  change: LinkChange,
  now = Date.now(),
): Promise<{ ok: true; link: StoredLink } | { ok: false; error: string }> {
  if (change.expiresAt !== null && change.expiresAt <= now) return { ok: false, error: 'expiresAt is in the past' };
  await env.FUNNEL_DB.prepare('UPDATE funnel_links SET expires_at = ?2 WHERE slug = ?1')
    .bind(link.slug, change.expiresAt)
    .run();
  return { ok: true, link: { ...link, expiresAt: change.expiresAt } };
}

/** Removes `link`. */
export async function deleteLink(env: Env, link: StoredLink): Promise<void> {
  await env.FUNNEL_DB.prepare('DELETE FROM funnel_links WHERE slug = ?1').bind(link.slug).run();
}
