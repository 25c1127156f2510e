/**
 * What happened, as plain data (docs/architecture.md#facts-and-listeners): a page viewed, a tap, an
 * install or an open decided, an app event received, a user identified, a link changed. A producer
 * makes a fact complete — its campaign decoded, its short link verified, its network bucket and
 * dimensions computed, when it happened — and hands it to `announce` (announce.ts) once; the
 * listeners (the funnel, fraud, webhooks) only translate it into their own rows and payloads.
 *
 * Here too are the words the wings share: the install answer with its methods and reasons, tap
 * actions, page kinds, event names, flags, the OS family, the stored link, the dimensions. This
 * module imports only `shared/`, so every wing may read it and it ties none to another.
 */
import type { AdClick } from '../shared/ad-clicks.ts';
import { CLICK_ACTIONS } from '../shared/attribution.ts';
import type { FraudRule, LanderConfig } from '../shared/config/schema.ts';
import type { Consent } from '../shared/consent.ts';
import type { LinkPreview } from '../shared/link-preview.ts';
import type { LinkRule } from '../shared/link-rules.ts';
import type { Experiment } from '../shared/variants.ts';
import { MATCH_METHODS, type MatchMethod, OS_FAMILIES, UNMATCHED_REASONS } from '../shared/webhooks.ts';

/** Which page a view was of: `/`, `/landing`, `/i/<carrier>`, `/s/<slug>`. */
export const PAGE_KINDS = ['download', 'landing', 'carrier', 'short'] as const;
/** The primary actions of a page a tap records. */
export const TAP_ACTIONS = CLICK_ACTIONS;
/**
 * How an install or an open was matched to a tap (`MATCH_METHODS`). Why one was not matched
 * (`UNMATCHED_REASONS`); `unavailable`: attribution's storage did not answer within its budget
 * (docs/reliability.md); `claimed`: its carrier's click already credited another install
 * (docs/attribution.md, "Which clicks credit"). The OS families an app reports at install
 * (`OS_FAMILIES`, its `platform`). All three are also the webhooks' words, so they live in `shared/`.
 */
export { MATCH_METHODS, type MatchMethod, OS_FAMILIES, UNMATCHED_REASONS };
/** An app event's name: lower-case letters, digits, `_ . -`, at most 40 (e.g. `register`). */
export const EVENT_NAME = /^[a-z0-9][a-z0-9_.-]{0,39}$/;
/** What a 400 says of a name that is not an `EVENT_NAME`. */
export const EVENT_NAME_RULE = 'names are a-z 0-9 _ . - (at most 40)';
/** The largest `value` of one app event, either sign: a trillion of any currency's smallest unit (docs/operators.md#bounds). */
export const MAX_EVENT_VALUE = 1e12;

export type PageKind = (typeof PAGE_KINDS)[number];
export type TapAction = (typeof TAP_ACTIONS)[number];
export type UnmatchedReason = (typeof UNMATCHED_REASONS)[number];
export type OsFamily = (typeof OS_FAMILIES)[number];

/** What `/api/a/install` and `/api/a/open` answer an app (attribution/contract.ts holds its schema to this). */
export type InstallAnswer =
  | {
      matched: true;
      method: MatchMethod;
      /** 0–100: 100 for a carrier. */
      confidence: number;
      /** The token's campaign fields; `{}` for a click without a campaign. */
      data: Record<string, string>;
      clickId: string;
      /** ISO 8601, or null when the click's beacon never arrived. */
      clickedAt: string | null;
    }
  | { matched: false; reason: UnmatchedReason };

/** A fraud rule's mark on an install and why, in numbers (never an identifier; docs/fraud.md). */
export interface Flag {
  rule: FraudRule;
  reason: string;
}

/** The flags raised on one install (its ledger key), for the ledger to keep beside its answer. */
export interface RaisedFlags {
  install: string;
  flags: Flag[];
}

/** A short link as stored (docs/operators.md). */
export interface StoredLink {
  slug: string;
  /** The signed campaign token (`d`). */
  token: string;
  /** The campaign fields the token carries. */
  data: Record<string, string>;
  createdAt: number;
  expiresAt: number | null;
  /** Its rules as written (docs/smart-links.md), in order; absent when it has none. */
  rules?: readonly LinkRule[];
  /** Its variants and the outcome they are judged on (docs/smart-links.md#variants-and-the-sequential-test); absent when it has none. */
  experiment?: Experiment;
  /** Whether it asks for a password before its page (docs/smart-links.md#links); its hash is never here. */
  hasPassword?: true;
  /** Its preview for link previewers (docs/smart-links.md#previews); absent when it has none. */
  preview?: LinkPreview;
  /** `app` when an app made it for its user (docs/campaign-links.md#invite-links-from-the-app); absent when an operator did. */
  source?: 'app';
}

/** A visitor's network (attribution/network.ts): its IPv4 /24 or IPv6 /64, and the whole address. */
export interface Network {
  /** `4:203.0.113` or `6:2001:db8:0:1`: the prefix, written one way only. */
  prefix: string;
  /** The whole address, written one way only. */
  address: string;
}

/** Longest dimension value kept; longer ones are cut. */
export const MAX_DIMENSION = 128;

/**
 * What a fact is counted under, `''` for "none". `channel`, `inviter` come only from the signed
 * campaign token; the plain query parameters of the same names are `plainChannel`, `plainInviter`,
 * so a typed-in `?channel=` never counts as the operator's channel. `link` is a short link's slug,
 * `variant` the name of the link's variant the visit saw (docs/smart-links.md#variants-and-the-sequential-test).
 */
export interface Dimensions {
  channel: string;
  inviter: string;
  link: string;
  variant: string;
  os: string;
  inapp: string;
  country: string;
  lang: string;
  plainChannel: string;
  plainInviter: string;
}

/** Who a page view is from, before hashing (funnel/visitor-key.ts): what every view of one browser carries. */
export interface VisitorSource {
  address: string;
  agent: string;
}

/** The Play Install Referrer's times as the app read them (`ReferrerDetails`), in seconds; `0` is unknown. */
export interface ReferrerTimes {
  referrerClickTimestampSeconds?: number;
  installBeginTimestampSeconds?: number;
  referrerClickTimestampServerSeconds?: number;
  installBeginTimestampServerSeconds?: number;
}

/** A person's view of a page that was found (never a bot's, a `HEAD` or a prefetch). */
export interface PageViewed {
  fact: 'page-viewed';
  /** When it happened (ms): the funnel counts it on that moment's day. */
  at: number;
  page: PageKind;
  dims: Dimensions;
  visitor: VisitorSource;
}

/** A person's tap on a page's primary action, under the page's signed campaign and verified short link. */
export interface Tapped {
  fact: 'tapped';
  at: number;
  action: TapAction;
  /** The signed campaign token's fields, decoded; `{}` without one. */
  campaign: Record<string, string>;
  /** The short link the tap was made on, when its stored token is the tap's; else `''`. */
  link: string;
  dims: Dimensions;
}

/** An app's call as the listeners name it: its app, its install id (hashed before it leaves) and its ledger key. */
interface AppCall {
  app: string;
  installId: string;
  /** The install's ledger key (attribution/resolve-install.ts `installKey`). */
  key: string;
  /** The install's answer; null for an app event of an install unknown (or not yet known). */
  answer: InstallAnswer | null;
  dims: Dimensions;
}

/** An install's answer, decided once (a retry is the same install, never a second fact). */
export interface InstallDecided extends AppCall {
  fact: 'install-decided';
  /** When it was decided: the funnel counts it on that day. */
  at: number;
  answer: InstallAnswer;
  platform: OsFamily;
  /** When the app called (its first launch), which the fraud rules compare with the click. */
  launchedAt: number;
  /** The keyed hash of the matched click's visitor id, `''` without one. */
  clickVisitor: string;
  network: Network | null;
  /** The keyed hash of the network (attribution's bucket), `''` without one. */
  networkBucket: string;
  referrer?: ReferrerTimes | undefined;
  /** The install's consent (docs/privacy.md, "Consent"): a listener sending to a third party asks `allows` first. */
  consent: Consent;
  /** The matched tap's ad click, while the attribution window keeps it (docs/conversions.md#ad-click-ids). */
  ad: AdClick | null;
}

/** An app opened by a link, with how the link was matched. */
export interface OpenDecided extends AppCall {
  fact: 'open-decided';
  at: number;
  answer: InstallAnswer;
  /** The consent the app sent with it, when it sent one: it may withdraw what the install allowed. */
  consent?: Consent | undefined;
}

/** An app event, under its install's answer. */
export interface AppEventReceived extends AppCall {
  fact: 'app-event';
  at: number;
  name: string;
  value?: number | undefined;
  /** The ISO 4217 code of `value` when the app named one (docs/operators.md#revenue). */
  currency?: string | undefined;
  /** `value` in `currency`'s minor units (999 for 9.99 USD), an integer; negative for a refund. */
  amount?: number | undefined;
  /** Its keyed id when the app named it: one count and one webhook however often it arrives. */
  id?: string | undefined;
  /** When it happened, as the app said (`at`, ms), when before `at`: its cohort day (docs/operators.md#cohorts). */
  happened?: number | undefined;
  /** Its install's matched tap's ad click, while the attribution window keeps it (docs/conversions.md). */
  ad?: AdClick | null | undefined;
  /** The consent the app sent with it, when it sent one: it may withdraw what the install allowed. */
  consent?: Consent | undefined;
}

/** A user signed in on an install (`identify`, docs/fraud.md). */
export interface UserIdentified {
  fact: 'user-identified';
  at: number;
  /** The app's own user id, hashed before it is kept. */
  userId: string;
  /** The install's ledger key. */
  key: string;
  /** The install's answer and whether it is a test device's; null when the install is unknown. */
  install: { answer: InstallAnswer; test: boolean } | null;
  /** The keyed hash of the install's matched click's visitor id, `''` without one. */
  clickVisitor: string;
}

/** A short link created, its expiry moved, or deleted. */
export interface LinkChanged {
  fact: 'link-changed';
  at: number;
  change: 'created' | 'updated' | 'deleted';
  link: StoredLink;
}

/**
 * What an operator's write changes (docs/operators.md#audit-log): the kinds of thing, and what was
 * done to one. `key`, `member`, `role` and `config` are named for the writes tenancy and an online
 * configuration bring; today the worker takes links, webhooks and test devices.
 */
export const CHANGE_KINDS = [
  'config',
  'link',
  'rule-set',
  'webhook',
  'conversion',
  'test-device',
  'key',
  'member',
  'role',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
export const CHANGE_ACTIONS = ['created', 'updated', 'deleted', 'rotated'] as const;
export type ChangeAction = (typeof CHANGE_ACTIONS)[number];

/** One accepted change as its wing describes it: before and after as plain JSON, never a secret. */
export interface ChangeRecord {
  kind: ChangeKind;
  action: ChangeAction;
  /** What was changed: a link's slug, an endpoint's id, a test device's keyed hash. */
  target: string;
  /** The thing before (null when created) and after (null when deleted). */
  before: unknown;
  after: unknown;
}

/**
 * An operator's change, complete: the wing's record with who made it, how they signed in, on which
 * app and when. The audit log keeps each (worker/audit/).
 */
export interface OperatorChange extends ChangeRecord {
  at: number;
  /** The signed-in identity's email or subject, or `token` for the admin token. */
  actor: string;
  /** `sign-in` (Cloudflare Access), `token`, or `key:<id>` for an API key. */
  via: string;
  app: string;
}

/**
 * Commits a change (commit-change.ts `committerOf`): the wing's D1 statements and the change's audit entry
 * in one batch, so both are kept or neither. The entry is written only when the first statement
 * changed a row: a write the store itself refuses (a taken URL, a full table) appends nothing.
 * Answers the statements' results, in order.
 */
export type CommitChange = (statements: D1PreparedStatement[], record: ChangeRecord) => Promise<D1Result[]>;

export type Fact = PageViewed | Tapped | InstallDecided | OpenDecided | AppEventReceived | UserIdentified | LinkChanged;

/**
 * Where a fact is announced: the environment, its app, what keeps work alive after the response, and the
 * operator's configuration when the producer's route loaded it (its time zone, its fraud floors).
 */
export interface Scene {
  env: Env;
  /**
   * The app it happened in (docs/routes.md#apps): every listener writes its rows and messages under
   * it. Named here, not on the fact, where `app` already names the package or bundle id an app sends.
   */
  app: string;
  ctx: Pick<ExecutionContext, 'waitUntil'>;
  config?: LanderConfig | undefined;
}

/**
 * A listener: translates a fact into its own rows or payloads, after the response (never throwing,
 * never delaying it). `raised` is what the fraud rules flag on it (`[]` for most facts).
 */
export type Listener = (scene: Scene, fact: Fact, raised: Promise<RaisedFlags[]>) => void;
