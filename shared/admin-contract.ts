/**
 * The admin API's answers (docs/operators.md): the contract between the worker that gives them and the
 * console and CLIs that read them.
 */

import type { Explanation } from './install-explanation.ts';
import type { LinkPreview } from './link-preview.ts';
import type { LinkRule } from './link-rules.ts';
import type { Rates } from './stats-rates.ts';

/**
 * A short link's slug, 3 to 48 of a–z, 0–9 and `-`, as a pattern source: the worker's check and route,
 * and the console's `pattern` attribute (whose `v` flag wants the `-` escaped).
 */
export const SLUG_PATTERN = '[a-z0-9\\-]{3,48}';
/** The longest channel or inviter a link request may give. */
export const MAX_LINK_FIELD = 256;

/**
 * What `GET /api/stats` may group its rows by (`by`, docs/operators.md): the worker's query, its
 * OpenAPI document, the console and `npm run stats` all take this list.
 */
export const STATS_GROUPINGS = [
  'day',
  'channel',
  'inviter',
  'link',
  'os',
  'inapp',
  'country',
  'lang',
  'plain:channel',
  'plain:inviter',
] as const;
/** One of `STATS_GROUPINGS`. */
export type StatsGrouping = (typeof STATS_GROUPINGS)[number];

/** One row of `GET /api/stats`. */
export interface StatsRow {
  /** The grouping's value: a day, a channel, an inviter, a link… (`''` for none). */
  key: string;
  views: number;
  visitors: number;
  taps: number;
  installs: number;
  opens: number;
  /** App events by name. */
  events: Record<string, number>;
  /** The sum of the app events' values, by name. */
  values: Record<string, number>;
  byPage: Record<string, number>;
  byAction: Record<string, number>;
  /** Installs by how they matched (`clipboard`, `referrer`, `apk`, `harmony`, `meta`, `probabilistic`) or why not (`unmatched:<reason>`). */
  byMethod: Record<string, number>;
  /** Installs a carrier or the probabilistic match attributed to a tap: a channel's installs. */
  attributed: number;
  /** Installs that matched nothing (organic): `installs` less `attributed`. */
  organic: number;
  /** Organic installs by reason: `none`, `ambiguous`, `expired`. */
  byUnmatched: Record<string, number>;
  /** Taps ÷ views, attributed installs ÷ taps, each app event ÷ installs (docs/operators.md#rates). */
  rates: Rates;
  /** Installs the fraud rules flagged (docs/fraud.md): in all, by rule, and those `fraud.exclude` leaves out. */
  flagged: { installs: number; byRule: Record<string, number>; excluded: number };
  /** `installs` less the excluded flagged ones: the figure to pay on. */
  countedInstalls: number;
  /** Revenue per ISO 4217 currency, in its minor units (docs/operators.md#revenue); `{}` for none. */
  revenue?: Record<string, RevenueFigure>;
  /** `revenue` in the operator's reporting currency, when the configuration names one (`revenue.currency`). */
  reported?: ReportedRevenue;
}

/** One currency's revenue in a row: app events with a value in it, their net sum and the refunds in it. */
export interface RevenueFigure {
  /** The app events counted (refunds included). */
  events: number;
  /** Their net sum in the currency's minor units (999 is 9.99 USD): refunds subtracted. */
  amount: number;
  /** The refunds (negative values) in it, as a positive sum of minor units. */
  refunds: number;
  /** The currency's minor-unit exponent (ISO 4217): 2 for USD, 0 for JPY, 3 for KWD. */
  exponent: number;
}

/** A row's revenue in one reporting currency, at the operator's rates. */
export interface ReportedRevenue {
  currency: string;
  /** Every converted currency's net sum, in `currency`'s minor units. */
  amount: number;
  exponent: number;
  /** The currencies the row has revenue in but the rates name no rate for: not in `amount`. */
  unconverted: string[];
}

/** A short link as `GET /api/links` lists it and `POST /api/links` answers it. */
export interface LinkView {
  slug: string;
  /** The long campaign link, `/landing?d=<token>`. */
  url: string;
  /** `/s/<slug>`. */
  shortUrl: string;
  /** The QR code of the short link, `/s/<slug>.svg`. */
  qr: string;
  /** The same QR code as a PNG, `/s/<slug>.png`. */
  qrPng: string;
  /** The campaign fields the token carries. */
  data: Record<string, string>;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, or null for a link that never expires. */
  expiresAt: string | null;
  /** Its rules, in order (docs/smart-links.md); `[]` for none. */
  rules: LinkRule[];
  /** Whether `/s/<slug>` asks for a password first (docs/smart-links.md#links); the password is never shown. */
  hasPassword: boolean;
  /** Its preview for link previewers (docs/smart-links.md#previews); null for none. */
  preview: LinkPreview | null;
  /**
   * Who made it: `operator` through the admin API (the console, `npm run link`, a key), `app` through
   * `POST /api/a/links` for the app's signed-in user (docs/campaign-links.md#invite-links-from-the-app).
   */
  source: LinkSource;
}

/** Who made a short link. */
export const LINK_SOURCES = ['operator', 'app'] as const;
export type LinkSource = (typeof LINK_SOURCES)[number];

/** An install or open answer as the admin API shows it (docs/attribution.md). */
export type AnswerView =
  | {
      matched: true;
      method: 'clipboard' | 'referrer' | 'apk' | 'harmony' | 'meta' | 'appgallery' | 'probabilistic';
      confidence: number;
      data: Record<string, string>;
      clickId: string;
      clickedAt: string | null;
    }
  | { matched: false; reason: 'none' | 'ambiguous' | 'expired' | 'unavailable' | 'claimed' };

/** An explanation (shared/install-explanation.ts) with its English sentences. */
export type ExplainView = Explanation & { summary: string[] };

/** A test device's answer as `GET /api/test-installs` lists it, newest first. */
export interface TestInstallView {
  /** Grows with every answer kept: `?after=<id>` lists only newer ones. */
  id: number;
  /** ISO 8601. */
  at: string;
  kind: 'install' | 'open';
  app: string;
  /** `ios`, `android`, `harmony`; '' for an open. */
  platform: string;
  /** Keyed hash of `(app, installId)`: one installation's calls share it. */
  device: string;
  answer: AnswerView;
  explain: ExplainView;
  /** A retry of an install already answered: the same answer from memory. */
  repeat: boolean;
}

/** A registered test device as `GET /api/test-devices` lists it (docs/attribution.md, "Test devices"). */
export interface TestDeviceView {
  id: number;
  app: string;
  /** Keyed hash of `(app, installId)`: the `device` of its test answers; the install id is never kept. */
  device: string;
  /** The operator's name for it ("Ann's Pixel"); '' when none was given. */
  label: string;
  /** ISO 8601. */
  createdAt: string;
}

/** One install's answer as `GET /api/installs` shows it. */
export interface InstallLookupView {
  answer: AnswerView;
  /** A test device asked first. */
  test: boolean;
  /** ISO 8601; null for an answer kept before explanations were. */
  answeredAt: string | null;
  explain: ExplainView;
  /** The fraud rules' flags on it, with their reasons (docs/fraud.md); the answer is never changed by them. */
  flags: { rule: string; reason: string }[];
}
