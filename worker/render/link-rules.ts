/**
 * A short link's rules on `/s/<slug>` (docs/smart-links.md): run once the link is read and before the
 * page, in order, on the request's variables. `store`, `url` and `deep-link` send a person on with a
 * 302; `page` (or no rule holding) is the page as without rules. A bot or link previewer always gets
 * the page, its metadata (rules/evaluate.ts `decideFor`). A rule that failed when it ran is counted
 * in `/api/losses` (`rule-errors`) after the response.
 */
import type { Context } from 'hono';
import type { Campaign } from '../../shared/campaign.ts';
import type { Action } from '../../shared/link-rules.ts';
import { matchesAppLinkPath } from '../app-links/app-link-fallback.ts';
import { appItemFor } from '../config/app-item.ts';
import type { AppEnv } from '../env.ts';
import type { StoredLink } from '../facts.ts';
import { countLoss } from '../reliability/losses.ts';
import { type Decision, decideFor } from '../rules/evaluate.ts';
import { compiledRules } from '../rules/stored-rules.ts';
import { requestInput } from '../rules/variables.ts';
import { settingsOf } from '../settings.ts';
import { appLinkDownload } from './app-link-answer.ts';

/** A redirect chosen for this visitor: never kept by a cache between two. */
function redirect(location: string): Response {
  return new Response(null, { status: 302, headers: { location, 'cache-control': 'private, no-store' } });
}

/**
 * The URL that opens the app at `path` on this device: the app's link domain when `path` is one of
 * its app link paths (where the app is not installed, that domain goes on to the download), else its
 * URL scheme; null on a desktop or with neither configured.
 */
export function deepLinkUrl(c: Context<AppEnv>, path: string): string | null {
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

/** Where `action` sends the visitor of `c`, or null for the page (a `page` action, or nowhere to go). */
function targetOf(c: Context<AppEnv>, action: Action, link: StoredLink): string | null {
  switch (action.action) {
    case 'page':
      return null;
    case 'url':
      return action.url;
    case 'store':
      // As an app link's fallback: the device's store or APK, none on a desktop or where the in-app
      // browser blocks downloads (the page's guide says what to do there).
      return appLinkDownload(c, new URLSearchParams({ d: link.token }));
    case 'deep-link':
      return deepLinkUrl(c, action.path);
  }
}

/** What the rules of the request's short link decide for it; null when it has no rules (or none that compile). */
export function linkDecision(c: Context<AppEnv>): Decision | null {
  const link = c.get('link');
  const compiled = link?.rules?.length ? compiledRules(link.rules) : null;
  if (!link || !compiled) return null;
  const campaign: Campaign = { signed: link.data, plain: {}, token: link.token };
  const allowed = c.get('config').config.links.allowed_hosts;
  const decision = decideFor(compiled, requestInput(c, campaign), c.get('verdict'), allowed);
  const failed = decision.failures.length;
  if (failed > 0) c.executionCtx.waitUntil(countLoss(c.env, 'rule-errors', failed));
  return decision;
}

/** The redirect the short link's rules send the visitor of `c` on with, or null for the page. */
export function linkRulesAnswer(c: Context<AppEnv>, decision: Decision | null): Response | null {
  const link = c.get('link');
  if (!decision || !link) return null;
  const target = targetOf(c, decision.action, link);
  return target ? redirect(target) : null;
}
