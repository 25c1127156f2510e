/**
 * Short links (docs/operators.md): a campaign minted with the worker's own decode key, stored in D1
 * under a slug, so `/s/<slug>` serves it and `/s/<slug>.svg` draws its QR code. A link never expires
 * unless it was given `expiresAt`. Its rules (docs/smart-links.md) are compiled before it is stored:
 * a link whose rules do not compile is never kept.
 */

import * as v from 'valibot';
import { MAX_LINK_FIELD, SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { type LinkPreview, LinkPreviewSchema } from '../../shared/link-preview.ts';
import { type LinkRule, RULE_SET_ID, RULES_FIELD, RulesSchema } from '../../shared/link-rules.ts';
import { readExperiment } from '../../shared/variants.ts';
import type { CommitChange, StoredLink } from '../facts.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { LINK_BUDGET_MS } from '../reliability/budget.ts';
import { compileRules } from '../rules/compile.ts';
import { storedRuleSet } from '../rules/rule-sets.ts';
import { storedRules } from '../rules/stored-rules.ts';
import { settingsOf } from '../settings.ts';
import { hashPassword } from './link-password.ts';
import { mintToken, PayloadSchema } from './query-data.ts';

/** A slug: 3 to 48 of a–z, 0–9 and `-`. */
export const SLUG = new RegExp(`^${SLUG_PATTERN}$`);

const Field = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_LINK_FIELD));

/** A link's password (docs/smart-links.md#links): 8 to 128 characters, kept only as its hash. */
export const PasswordSchema = v.pipe(
  v.string(),
  v.minLength(8, 'password is at least 8 characters'),
  v.maxLength(128, 'password is at most 128 characters'),
);

/** The body of `POST /api/links`. */
export const LinkRequestSchema = v.strictObject({
  channel: v.optional(Field),
  inviter: v.optional(Field),
  data: v.optional(PayloadSchema),
  slug: v.optional(v.pipe(v.string(), v.regex(SLUG, 'slug is 3 to 48 of a-z, 0-9 and -'))),
  expiresAt: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp('expiresAt is an ISO 8601 time with its zone, e.g. 2027-01-01T00:00:00Z'),
      v.transform((text) => Date.parse(text)),
    ),
  ),
  rules: v.optional(RulesSchema),
  password: v.optional(PasswordSchema),
  preview: v.optional(LinkPreviewSchema),
});
export type LinkRequest = v.InferOutput<typeof LinkRequestSchema>;

export type CreateResult = { ok: true; link: StoredLink } | { ok: false; status: 400 | 409 | 503; error: string };

const SLUG_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

/** A random 8-character slug without look-alike characters (l, o, 0, 1). */
function randomSlug(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => SLUG_ALPHABET[byte % SLUG_ALPHABET.length]).join('');
}

const INSERT =
  'INSERT INTO funnel_links (app, slug, token, data, created_at, expires_at, rules, password, preview, source) VALUES (?6, ?1, ?2, ?3, ?4, ?5, ?7, ?8, ?9, ?10) ON CONFLICT (app, slug) DO NOTHING';

/**
 * Why `rules` cannot be kept for an app whose allow list is `allowedHosts`: every refusal with its
 * place (docs/smart-links.md#compiling), or null when they all compile.
 */
export function refusedRules(rules: readonly LinkRule[] | undefined, allowedHosts: readonly string[]): string | null {
  if (!rules?.length) return null;
  const compiled = compileRules(rules, allowedHosts);
  return compiled.ok ? null : compiled.errors.join('; ');
}

/** The `rules` column of `rules`: their JSON, or null for none. */
export const rulesColumn = (rules: readonly LinkRule[] | undefined): string | null =>
  rules?.length ? JSON.stringify(rules) : null;

/** The `preview` column of `preview`: its JSON, or null for none (an empty one is none). */
export const previewColumn = (preview: LinkPreview | undefined | null): string | null =>
  preview && Object.keys(preview).length > 0 ? JSON.stringify(preview) : null;

/**
 * Mints and stores the link `request` asks for, committed by `commit` (with its audit entry); a taken
 * slug is a 409, a missing decode key a 503, rules that do not compile against the app's
 * `allowedHosts` a 400 naming each. `source` is `app` for an app's invite link (attribution/app-links.ts).
 */
export async function createLink(
  env: Env,
  app: string,
  request: LinkRequest,
  commit: CommitChange,
  { allowedHosts = [] as readonly string[], now = Date.now(), source = 'operator' as 'operator' | 'app' } = {},
): Promise<CreateResult> {
  if (request.expiresAt !== undefined && request.expiresAt <= now) {
    return { ok: false, status: 400, error: 'expiresAt is in the past' };
  }
  const refused = refusedRules(request.rules, allowedHosts);
  if (refused) return { ok: false, status: 400, error: refused };
  // A token naming a rule set names one the app has (docs/smart-links.md#rule-sets).
  const set = request.data?.[RULES_FIELD];
  if (set !== undefined && !(RULE_SET_ID.test(set) && (await storedRuleSet(env, app, set)))) {
    return { ok: false, status: 400, error: `data.${RULES_FIELD}: no rule set "${set}" in this app` };
  }
  const data: Record<string, string> = { ...request.data };
  if (request.channel !== undefined) data.channel = request.channel;
  if (request.inviter !== undefined) data.inviter = request.inviter;
  const minted = mintToken(data, settingsOf(env).decodeKey);
  if (!minted.ok) {
    if (minted.refused === 'key')
      return { ok: false, status: 503, error: 'Campaign links are off: set the DECODE_KEY secret (docs/config.md)' };
    const error = minted.refused === 'data' ? v.summarize(minted.issues) : 'the campaign data is too long for a link';
    return { ok: false, status: 400, error };
  }
  const { token } = minted;
  const password = request.password === undefined ? null : await hashPassword(request.password);
  // A made-up slug that is taken is made up again; a chosen one is the caller's to change.
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const slug = request.slug ?? randomSlug();
    const link: StoredLink = { slug, token, data, createdAt: now, expiresAt: request.expiresAt ?? null };
    if (request.rules?.length) link.rules = request.rules;
    if (password) link.hasPassword = true;
    if (previewColumn(request.preview)) link.preview = request.preview;
    if (source === 'app') link.source = 'app';
    const insert = env.FUNNEL_DB.prepare(INSERT).bind(
      slug,
      token,
      JSON.stringify(data),
      now,
      link.expiresAt,
      app,
      rulesColumn(request.rules),
      password,
      previewColumn(request.preview),
      source,
    );
    const [result] = await commit([insert], {
      kind: 'link',
      action: 'created',
      target: slug,
      before: null,
      after: link,
    });
    if ((result?.meta.changes ?? 0) > 0) return { ok: true, link };
    if (request.slug !== undefined) return { ok: false, status: 409, error: `the slug "${slug}" is taken` };
  }
  return { ok: false, status: 503, error: 'no free slug found: try again' };
}

/** A `funnel_links` row. */
export interface LinkRow {
  slug: string;
  token: string;
  data: string;
  created_at: number;
  expires_at: number | null;
  /** Its rules' JSON (migrations/0014_link_rules.sql), NULL for none. */
  rules?: string | null;
  /** Its experiment as JSON (migration 0015), NULL for none. */
  variants?: string | null;
  /** Its password's hash (migration 0016, link-password.ts), NULL for none. */
  password?: string | null;
  /** Its preview as JSON (migration 0017, shared/link-preview.ts), NULL for none. */
  preview?: string | null;
  /** Who made it, `operator` or `app` (migration 0019). */
  source?: string;
}

// The password hash of each link read, beside it rather than in it: a link is shown, logged in the
// audit log and announced to webhooks, and its hash is none of theirs.
const passwordHashes = new WeakMap<StoredLink, string>();

/** The stored password hash of `link` as read from D1, or undefined when it has none. */
export const passwordHashOf = (link: StoredLink): string | undefined => passwordHashes.get(link);

/** The preview a link keeps as JSON, or undefined for none or one that no longer reads. */
function readPreview(text: string | null | undefined): LinkPreview | undefined {
  if (!text) return undefined;
  try {
    const parsed = v.safeParse(LinkPreviewSchema, JSON.parse(text));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** The stored link of a `funnel_links` row. */
export const linkOf = (row: LinkRow): StoredLink => {
  const link: StoredLink = {
    slug: row.slug,
    token: row.token,
    data: JSON.parse(row.data) as Record<string, string>,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
  if (row.rules) link.rules = storedRules(row.rules);
  const experiment = readExperiment(row.variants);
  if (experiment) link.experiment = experiment;
  const preview = readPreview(row.preview);
  if (preview) link.preview = preview;
  if (row.source === 'app') link.source = 'app';
  if (row.password) {
    link.hasPassword = true;
    passwordHashes.set(link, row.password);
  }
  return link;
};

/**
 * The link stored under `slug`, or null when there is none or it has expired. Never throws: a page
 * asks for it, and an unreadable store reads as no link (logged) rather than a broken page.
 */
export async function resolveLink(env: Env, app: string, slug: string, now = Date.now()): Promise<StoredLink | null> {
  const link = await readLink(env, app, slug, now);
  return link === 'unavailable' || link === 'expired' ? null : link;
}

/**
 * The live link `slug`, null when there is none, `expired` when it was there until its `expiresAt`,
 * or `unavailable` when D1 failed or did not answer within the budget: the page never waits on D1
 * past it (docs/reliability.md).
 */
export async function readLink(
  env: Env,
  app: string,
  slug: string,
  now = Date.now(),
): Promise<StoredLink | null | 'expired' | 'unavailable'> {
  if (!SLUG.test(slug)) return null;
  try {
    const read = env.FUNNEL_DB.prepare('SELECT * FROM funnel_links WHERE app = ?1 AND slug = ?2')
      .bind(app, slug)
      .first<LinkRow>();
    const row = await withinBudget(read, LINK_BUDGET_MS);
    if (!row) return null;
    if (row.expires_at !== null && row.expires_at <= now) return 'expired';
    return linkOf(row);
  } catch (error) {
    console.error('Link not read', error instanceof Error ? error.message : String(error));
    return 'unavailable';
  }
}

/** The newest `limit` links, expired ones included. */
export async function listLinks(env: Env, app: string, limit = 500): Promise<StoredLink[]> {
  const { results } = await env.FUNNEL_DB.prepare(
    'SELECT * FROM funnel_links WHERE app = ?1 ORDER BY created_at DESC, slug LIMIT ?2',
  )
    .bind(app, limit)
    .all<LinkRow>();
  return results.map(linkOf);
}
