/**
 * A page's rules (docs/smart-links.md): a short link's own on `/s/<slug>`, else the rule set its
 * campaign token names in its signed `rules` field (rules/rule-sets.ts) on `/s/<slug>`, `/landing`
 * and `/i/<carrier>`. They run once the link is read and before the
 * page, in order, on the request's variables. `store`, `url` and `deep-link` send a person on with a
 * 302; `page` (or no rule holding) is the page as without rules. A bot or link previewer always gets
 * the page, its metadata (rules/evaluate.ts `decideFor`). A rule that failed when it ran is counted
 * in `/api/losses` (`rule-errors`) after the response.
 */
import type { Context } from 'hono';
import type { Campaign } from '../../shared/campaign.ts';
import { type Action, type LinkRule, RULES_FIELD } from '../../shared/link-rules.ts';
import { matchesAppLinkPath } from '../app-links/app-link-fallback.ts';
import { carrierToken } from '../attribution/carrier.ts';
import { appItemFor } from '../config/app-item.ts';
import type { AppEnv } from '../env.ts';
import { pageOf } from '../lib/page-of.ts';
import { countLoss } from '../reliability/losses.ts';
import { type Decision, decideFor } from '../rules/evaluate.ts';
import { ruleSetRules } from '../rules/rule-sets.ts';
import { compiledRules } from '../rules/stored-rules.ts';
import { requestInput } from '../rules/variables.ts';
import { settingsOf } from '../settings.ts';
import { appLinkDownload } from './app-link-answer.ts';
import { campaignOf, pageAddress } from './handoff.ts';

/** A redirect chosen for this visitor: never kept by a cache between two. */
function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } });
}

/**
 * The URL that opens the app at `path` on this device: the app's link domain when `path` is one of
 * its app link paths (where the app is not installed, that domain goes on to the download), else its
 * URL scheme; null on a desktop or with neither configured.
 */
function deepLinkUrl(c: Context<AppEnv>, path: string): string | null {
  const verdict = c.get('verdict');
  if (verdict.operatingSystem === 'PC') return null;
  const { config } = c.get('config');
  const domain = config.links.universal_link_domain;
  const pathname = path.replace(/[?#].*$/, '');
  const pageHost = new URL(c.req.url).hostname;
  if (domain && domain !== pageHost && config.links.paths.some((pattern) => matchesAppLinkPath(pattern, pathname))) {
    return `https://${domain}${path}`;
  }
  const schemes = appItemFor(config.appData, verdict.operatingSystem === 'iOS' ? 2 : 1)?.schemes;
  if (!schemes) return null;
  return `${settingsOf(c.env).env === 'production' ? schemes.pro : schemes.dev}://${path.slice(1)}`;
}

/** The query the store's download carries on: the page's token (the short link's, the carrier's or the query's). */
function downloadQuery(c: Context<AppEnv>): URLSearchParams {
  const link = c.get('link');
  if (link) return new URLSearchParams({ d: link.token });
  const { carrier } = pageOf(c);
  const token = carrier ? carrierToken(carrier) : new URL(c.req.url).searchParams.get('d');
  return new URLSearchParams(token ? { d: token } : {});
}

/** Where `action` sends the visitor of `c`, or null for the page (a `page` action, or nowhere to go). */
function targetOf(c: Context<AppEnv>, action: Action): string | null {
  switch (action.action) {
    case 'page':
      return null;
    case 'url':
      return action.url;
    case 'store':
      // As an app link's fallback: the device's store or APK, none on a desktop or where the in-app
      // browser blocks downloads (the page's guide says what to do there).
      return appLinkDownload(c, downloadQuery(c));
    case 'deep-link':
      return deepLinkUrl(c, action.path);
  }
}

/** The pages rules run on: a short link's, the campaign page and a carrier's. */
const RULED_PAGES = new Set(['short', 'landing', 'carrier']);

/**
 * The rules that decide for the request's page, with the campaign they read: the short link's own,
 * else those of the rule set its token names; null for none.
 */
async function pageRules(c: Context<AppEnv>): Promise<{ rules: readonly LinkRule[]; campaign: Campaign } | null> {
  const identity = pageOf(c);
  if (!RULED_PAGES.has(identity.page)) return null;
  const link = c.get('link');
  let campaign: Campaign;
  if (identity.page === 'short') {
    // The link's campaign as stored: no token to decrypt.
    if (!link) return null;
    campaign = { signed: link.data, plain: {}, token: link.token };
    if (link.rules?.length) return { rules: link.rules, campaign };
  } else {
    const url = new URL(c.req.url);
    // A page with no token to read has no rules: the kept page's hit pays for nothing more.
    if (!identity.carrier && !url.search.includes('d=')) return null;
    // Read from the page's address, as the page reads it: the page then reuses this reading.
    campaign = campaignOf(pageAddress(url), identity, settingsOf(c.env).decodeKey, null);
  }
  const id = campaign.signed[RULES_FIELD];
  const rules = id ? await ruleSetRules(c.env, c.get('app'), id) : null;
  return rules?.length ? { rules, campaign } : null;
}

/** What the rules of the request's page decide for it; null when it has none (or none that compile). */
export async function linkDecision(c: Context<AppEnv>): Promise<Decision | null> {
  const found = await pageRules(c);
  const compiled = found ? compiledRules(found.rules) : null;
  if (!found || !compiled) return null;
  const allowed = c.get('config').config.links.allowed_hosts;
  const decision = decideFor(compiled, requestInput(c, found.campaign), c.get('verdict'), allowed);
  const failed = decision.failures.length;
  if (failed > 0) c.executionCtx.waitUntil(countLoss(c.env, 'rule-errors', failed));
  return decision;
}

/** The redirect the page's rules send the visitor of `c` on with, or null for the page. */
export function linkRulesAnswer(c: Context<AppEnv>, decision: Decision | null): Response | null {
  if (!decision) return null;
  const target = targetOf(c, decision.action);
  return target ? redirect(target) : null;
}
