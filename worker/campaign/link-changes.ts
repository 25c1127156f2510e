/**
 * Changing and removing a short link (docs/operators.md): its expiry can be moved (or removed: the
 * link then never expires), its rules replaced (docs/smart-links.md; `[]` removes them), its password
 * set or removed (`null`), its preview replaced or removed (`null`), and the link
 * can be deleted, after which `/s/<slug>` is the 404 page. Its campaign cannot change: the token
 * printed on posters and QR codes is what it is.
 */
import * as v from 'valibot';
import { LinkPreviewSchema } from '../../shared/link-preview.ts';
import { RulesSchema } from '../../shared/link-rules.ts';
import type { CommitChange, StoredLink } from '../facts.ts';
import { hashPassword } from './link-password.ts';
import { type LinkRow, linkOf, PasswordSchema, previewColumn, refusedRules, rulesColumn, SLUG } from './links.ts';

/** The body of `PATCH /api/links/<slug>`: a new expiry, new rules, a new password (null: none), or several. */
export const LinkChangeSchema = v.pipe(
  v.strictObject({
    expiresAt: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.isoTimestamp('expiresAt is an ISO 8601 time with its zone, e.g. 2027-01-01T00:00:00Z'),
          v.transform((text) => Date.parse(text)),
        ),
      ),
    ),
    rules: v.optional(RulesSchema),
    password: v.optional(v.nullable(PasswordSchema)),
    preview: v.optional(v.nullable(LinkPreviewSchema)),
  }),
  v.check(
    (change) =>
      change.expiresAt !== undefined ||
      change.rules !== undefined ||
      change.password !== undefined ||
      change.preview !== undefined,
    'expiresAt, rules, password or preview: name what to change',
  ),
);
export type LinkChange = v.InferOutput<typeof LinkChangeSchema>;

/** The link stored under `slug`, expired or not; null when there is none. */
export async function storedLink(env: Env, app: string, slug: string): Promise<StoredLink | null> {
  if (!SLUG.test(slug)) return null;
  const row = await env.FUNNEL_DB.prepare('SELECT * FROM funnel_links WHERE app = ?1 AND slug = ?2')
    .bind(app, slug)
    .first<LinkRow>();
  return row ? linkOf(row) : null;
}

/**
 * Gives `link` the expiry, rules and password `change` asks for (what it leaves out stays), committed by
 * `commit`; a time in the past, or rules that do not compile against the app's `allowedHosts`, are refused.
 */
export async function changeLink(
  env: Env,
  app: string,
  link: StoredLink,
  change: LinkChange,
  commit: CommitChange,
  { allowedHosts = [] as readonly string[], now = Date.now() } = {},
): Promise<{ ok: true; link: StoredLink } | { ok: false; error: string }> {
  const expiresAt = change.expiresAt === undefined ? link.expiresAt : change.expiresAt;
  if (change.expiresAt != null && change.expiresAt <= now) return { ok: false, error: 'expiresAt is in the past' };
  const refused = refusedRules(change.rules, allowedHosts);
  if (refused) return { ok: false, error: refused };
  const next: StoredLink = { ...link, expiresAt };
  const rules = change.rules === undefined ? link.rules : change.rules;
  if (rules?.length) next.rules = rules;
  else delete next.rules;
  // The password left out stays as it is; null removes it.
  const password = change.password ? await hashPassword(change.password) : change.password;
  if (password) next.hasPassword = true;
  else if (password === null) delete next.hasPassword;
  // The preview left out stays as it is; null (or an empty one) removes it.
  const preview = change.preview === undefined ? link.preview : previewColumn(change.preview) ? change.preview : null;
  if (preview) next.preview = preview;
  else delete next.preview;
  const update = env.FUNNEL_DB.prepare(
    password === undefined
      ? 'UPDATE funnel_links SET expires_at = ?3, rules = ?4, preview = ?5 WHERE app = ?1 AND slug = ?2'
      : 'UPDATE funnel_links SET expires_at = ?3, rules = ?4, preview = ?5, password = ?6 WHERE app = ?1 AND slug = ?2',
  ).bind(
    app,
    link.slug,
    expiresAt,
    rulesColumn(rules),
    previewColumn(preview),
    ...(password === undefined ? [] : [password]),
  );
  await commit([update], { kind: 'link', action: 'updated', target: link.slug, before: link, after: next });
  return { ok: true, link: next };
}

/** Removes `link`, committed by `commit`. */
export async function deleteLink(env: Env, app: string, link: StoredLink, commit: CommitChange): Promise<void> {
  const remove = env.FUNNEL_DB.prepare('DELETE FROM funnel_links WHERE app = ?1 AND slug = ?2').bind(app, link.slug);
  await commit([remove], { kind: 'link', action: 'deleted', target: link.slug, before: link, after: null });
}
