/**
 * `POST /api/a/links` (docs/campaign-links.md#invite-links-from-the-app): an app makes an invite link
 * for the user signed in on one of its installs, without the admin token. Its permission is narrow: a
 * short link of this app with a channel and data fields the operator allows (`invites` in the app's
 * configuration, off by default), and the install's identified user as its inviter — nothing else a
 * short link may have (rules, variants, a password, a slug, an expiry, a preview). The install must be
 * known (it called `install()`), its user named by `identify()` (the keyed hashes compared), and its
 * calls are counted per install by the minute and by the day (sign-in/rate-limit.ts).
 */
import type { Context } from 'hono';
import type { InvitesConfig } from '../../shared/config/schema.ts';
import { announce, sceneOf } from '../announce.ts';
import { appOrigin } from '../apps/app-origin.ts';
import { createLink } from '../campaign/links.ts';
import type { AppEnv } from '../env.ts';
import type { CommitChange } from '../facts.ts';
import { identifiedAs } from '../fraud/self-referral.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { ATTRIBUTION_BUDGET_MS } from '../reliability/budget.ts';
import { spendCall } from '../sign-in/rate-limit.ts';
import type { AppLinkInput } from './contract.ts';
import { installKey, installRecordOf } from './resolve-install.ts';

/** The invite links one install may make a minute; the day's number is the operator's (`invites.per_day`). */
export const INVITES_PER_MINUTE = 5;

/** What `POST /api/a/links` answers: the short link the app shares, and the campaign it carries. */
export interface AppLinkAnswer {
  slug: string;
  /** The short link, `<origin>/s/<slug>`. */
  url: string;
  /** The link's QR code, `<origin>/s/<slug>.svg`. */
  qr: string;
  data: Record<string, string>;
}

/**
 * Why the operator's `invites` refuse what `body` asks for, naming the field; null when they allow it.
 * The channel left out is the first one allowed.
 */
export function refusedByInvites(invites: InvitesConfig, body: AppLinkInput): string | null {
  if (!invites.enabled)
    return "app: invite links from the app are off for this app (its configuration's invites.enabled)";
  const channel = body.channel ?? invites.channels[0];
  if (channel === undefined || !invites.channels.includes(channel)) {
    return `channel: "${channel}" is not one of this app's invite channels (${invites.channels.join(', ')})`;
  }
  for (const [key, value] of Object.entries(body.data ?? {})) {
    if (!invites.data_keys.includes(key)) {
      const allowed = invites.data_keys.length ? invites.data_keys.join(', ') : 'none';
      return `data.${key}: not a field this app's invite links may set (allowed: ${allowed})`;
    }
    if (value.length > invites.max_value_length) return `data.${key}: at most ${invites.max_value_length} characters`;
  }
  return null;
}

/** Answers `POST /api/a/links` for a checked `body`: 201 and the link, or the refusal naming its field. */
export async function createAppLink(c: Context<AppEnv>, body: AppLinkInput, salt: string): Promise<Response> {
  const invites = c.get('config').config.invites;
  const refused = refusedByInvites(invites, body);
  if (refused) return c.json({ error: refused }, refused.startsWith('app:') ? 403 : 400);
  const env = c.env;
  const app = c.get('app');
  const key = await installKey(salt, body.app, body.installId);
  const install = await withinBudget(
    installRecordOf({ env, app, salt }, body.app, body.installId),
    ATTRIBUTION_BUDGET_MS,
  ).catch(() => 'unavailable' as const);
  if (install === 'unavailable') return c.json({ error: 'The install could not be read in time: try again' }, 503);
  if (!install) return c.json({ error: 'installId: no install of this app has this id: call install() first' }, 403);
  // Counted before the inviter is compared: guessing who signed in costs the install its quota.
  const bucket = `${app}:${key}`;
  const limited =
    (await spendCall(c, { name: 'install', bucket, quota: INVITES_PER_MINUTE, window: 60 })) ??
    (await spendCall(c, { name: 'install-day', bucket, quota: invites.per_day, window: 86_400 }));
  if (limited) return limited;
  if (!(await identifiedAs(env.FUNNEL_DB, app, salt, body.inviter, key))) {
    return c.json({ error: 'inviter: this install was not identified as this user: call identify(userId) first' }, 403);
  }
  const request = { channel: body.channel ?? invites.channels[0], inviter: body.inviter, data: body.data };
  // A user's invite is no operator's change: kept without an audit entry, bounded by the install's quota.
  const commit: CommitChange = (statements) => env.FUNNEL_DB.batch(statements);
  const result = await createLink(env, app, request, commit, { source: 'app' });
  if (!result.ok) return c.json({ error: result.error }, result.status);
  const { link } = result;
  announce(sceneOf(c), { fact: 'link-changed', at: Date.now(), change: 'created', link });
  const origin = appOrigin(c);
  const answer: AppLinkAnswer = {
    slug: link.slug,
    url: `${origin}/s/${link.slug}`,
    qr: `${origin}/s/${link.slug}.svg`,
    data: link.data,
  };
  return c.json(answer, 201);
}
