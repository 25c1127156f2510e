/**
 * The operator's configuration document (docs/config.md): one JSON document in KV under
 * `CONFIG_KEY`, checked with this schema before the worker uses it and before `config:push`
 * writes it. docs/config.md describes every field.
 */
import { closestMatch } from 'leven';
import * as v from 'valibot';
import { decimalsOf, isCurrency } from '../money.ts';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../time-zone.ts';

/** The KV key that holds the configuration document. */
export const CONFIG_KEY = 'config';

/**
 * An object that refuses keys it does not know, naming the closest known one: a misspelt key
 * (`app_store_idd`) would otherwise be dropped without a word and its setting silently missing
 * (docs/config.md#unknown-keys).
 */
function closed<const Entries extends v.ObjectEntries>(entries: Entries) {
  const known = Object.keys(entries);
  return v.strictObject(entries, (issue) => {
    // A required key left out is reported at the key: "missing", not the object's type.
    if (issue.expected?.startsWith('"') && issue.received === 'undefined') return 'missing';
    if (issue.expected !== 'never') return 'must be an object';
    const key = String(issue.path?.at(-1)?.key);
    // A suggestion only when it is near enough to be the intended key; otherwise the list.
    const near = closestMatch(key, known, { maxDistance: Math.max(2, Math.floor(key.length / 3)) });
    return near ? `unknown key; did you mean ${near}?` : `unknown key; known keys are ${known.join(', ')}`;
  });
}

const text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(max));

/** A visible text: one string for every language, or one per language (docs/screens.md). */
export const LocalTextSchema = v.union(
  [
    text(500),
    v.pipe(
      closed({ en: v.optional(text(500)), 'zh-CN': v.optional(text(500)) }),
      v.check((t) => t.en !== undefined || t['zh-CN'] !== undefined, 'needs "en" or "zh-CN"'),
    ),
  ],
  'must be a string or an object with "en" and/or "zh-CN"',
);

const httpsUrl = v.pipe(v.string(), v.url('must be a URL'), v.startsWith('https://', 'must start with https://'));
/** A site path (`/logo.png`) or an https URL: where images may come from. */
const imageUrl = v.union(
  [httpsUrl, v.pipe(v.string(), v.regex(/^\/(?!\/)[^\s\\]*$/, 'must be a path starting with one /'))],
  'must be an https URL or a path starting with /',
);
const origin = v.pipe(
  httpsUrl,
  v.check((value) => {
    try {
      return new URL(value).origin === value.replace(/\/$/, '');
    } catch {
      return false;
    }
  }, 'must be an origin only (https://host[:port]), no path'),
  v.transform((value) => value.replace(/\/$/, '')),
);
const scheme = v.pipe(v.string(), v.regex(/^[a-z][a-z0-9+.-]{0,31}$/, 'must be a URL scheme name such as "lander"'));

export const AppItemSchema = closed({
  /** 1 Android, 2 iOS, 3 all (docs/campaign-links.md). */
  plat: v.picklist([1, 2, 3], 'must be 1 (Android), 2 (iOS) or 3 (all)'),
  logo_url: imageUrl,
  name: LocalTextSchema,
  version: text(32),
  /** As shown, e.g. "36.2 MB". */
  size: text(32),
  updated_at: v.pipe(v.string(), v.isoDate('must be a date YYYY-MM-DD')),
  /** The APK's path on the download domains (`/android/app-2.4.0.apk`); the page adds the reachable domain. */
  download_url: v.optional(
    v.pipe(v.string(), v.regex(/^\/(?!\/)[^\s\\?#]*$/, 'must be a path starting with one / (no domain)')),
  ),
  /** A store page for Android when there is no APK. */
  store_url: v.optional(httpsUrl),
  app_store_id: v.optional(v.pipe(v.string(), v.regex(/^\d{6,12}$/, 'must be the numeric App Store id'))),
  /** AppGallery's app id: the page links to https://appgallery.huawei.com/app/detail?id=<id>. */
  appgallery_id: v.optional(v.pipe(v.string(), v.regex(/^[\w.]{1,100}$/, 'must be an AppGallery app id'))),
  /** Tencent app store (YYB) link, usually carrying `android_schema`; WeChat on Android goes there. */
  yyb_url: v.optional(httpsUrl),
  package: v.optional(v.pipe(v.string(), v.regex(/^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+$/, 'must be a package name'))),
  bundle_id: v.optional(v.pipe(v.string(), v.regex(/^[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$/, 'must be a bundle id'))),
  /** URL schemes that open the app: `dev` in development, `pro` in production (docs/screens.md). */
  schemes: v.optional(closed({ dev: scheme, pro: scheme })),
});

export const CommonConfigSchema = closed({
  tagline: LocalTextSchema,
  /** Meta description for search results and link previews. */
  description: LocalTextSchema,
  features: v.optional(v.pipe(v.array(LocalTextSchema), v.maxLength(8, 'at most 8 feature lines')), []),
  screenshots: v.optional(
    v.pipe(v.array(closed({ url: imageUrl, alt: LocalTextSchema })), v.maxLength(6, 'at most 6 screenshots')),
    [],
  ),
  /** Open Graph / Twitter card image; the first app's logo when absent. */
  og_image: v.optional(imageUrl),
  /** Offers the debug console (docs/builds.md). */
  debug: v.optional(v.boolean(), false),
  /** The small resource fetched on each download domain to see whether it answers (docs/config.md). */
  probe_path: v.optional(
    v.pipe(v.string(), v.regex(/^\/(?!\/)[^\s\\#]*$/, 'must be a path starting with one /')),
    '/favicon.ico',
  ),
});

/** A privacy policy and other pages a visitor must be able to trust: https only. */
const httpsOnlyUrl = v.pipe(v.string(), v.url('must be a URL'), v.startsWith('https://', 'must be https'));
const pixels = v.pipe(
  v.number('must be a number of pixels'),
  v.integer('must be whole pixels'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(4096, 'at most 4096'),
);

/** A screenshot of the about block: its pixel size is given, so the page reserves its space before it loads. */
export const AboutScreenshotSchema = closed({ url: imageUrl, width: pixels, height: pixels, alt: LocalTextSchema });

/** An Android permission the app asks for, and what the app uses it for. */
export const PermissionSchema = closed({ name: LocalTextSchema, purpose: LocalTextSchema });

/**
 * Who makes the app and what it is (docs/config.md#about-the-app): the page's "about this app" block.
 * Version, date and size default to the uploaded APK's and then to the shown app item's.
 */
export const AboutSchema = closed({
  developer: v.optional(LocalTextSchema),
  version: v.optional(text(32)),
  version_date: v.optional(v.pipe(v.string(), v.isoDate('must be a date YYYY-MM-DD'))),
  /** As shown, e.g. "36.2 MB". */
  size: v.optional(text(32)),
  description: v.optional(LocalTextSchema),
  screenshots: v.optional(v.pipe(v.array(AboutScreenshotSchema), v.maxLength(5, 'at most 5')), []),
  privacy_url: v.optional(httpsOnlyUrl),
  permissions: v.optional(v.pipe(v.array(PermissionSchema), v.maxLength(40, 'at most 40')), []),
});

/** ICP 备案号 / App 备案号: `京ICP备12345678号-1`, `京ICP证030173号`, `粤ICP备2023123456号-2A`. */
const filingNumber = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^[\u4e00-\u9fff]{1,3}ICP[备证]\d{4,12}号(-\d{1,3}[A-Z]?)?$/u,
    'must be a filing number such as 京ICP备12345678号-1',
  ),
);

/** Mainland China (docs/screens.md#mainland-china): the disclosure rules and the filing numbers. */
export const ChinaSchema = closed({
  /** The page serves mainland visitors: MIIT's disclosure rules apply (an APK download is confirmed). */
  mainland: v.optional(v.boolean(), false),
  /** The site's ICP filing number, in the footer, linking to https://beian.miit.gov.cn/. */
  icp_filing: v.optional(filingNumber),
  /** The app's filing number (App 备案号), in the footer. */
  app_filing: v.optional(filingNumber),
});

/** Universal Links (iOS) and App Links (Android) settings, served under /.well-known. */
export const LinksSchema = closed({
  /** The host whose links open the app; never the page's own host (same-host links never open it). */
  universal_link_domain: v.optional(
    v.pipe(v.string(), v.regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'must be a host name')),
  ),
  /** `TEAMID.bundle.id` entries for apple-app-site-association. */
  apple_app_ids: v.optional(
    v.array(v.pipe(v.string(), v.regex(/^[A-Z0-9]{10}\.[\w.-]+$/, 'must be TEAMID.bundle'))),
    [],
  ),
  paths: v.optional(v.array(v.pipe(v.string(), v.startsWith('/', 'must start with /'))), ['/open/*']),
  android_package: v.optional(v.pipe(v.string(), v.regex(/^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+$/))),
  android_sha256: v.optional(
    v.array(v.pipe(v.string(), v.regex(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/, 'must be an SHA-256 fingerprint AA:BB:…'))),
    [],
  ),
  /**
   * HarmonyOS NEXT App Linking: the app identifiers (AppGallery app ids) for applinking.json. When set
   * with `universal_link_domain`, HarmonyOS NEXT visitors open the app by an App Linking URL on that
   * domain (docs/attribution.md).
   */
  harmony_app_ids: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.regex(/^[\w.]{1,100}$/, 'must be an AppGallery app id'))),
      v.maxLength(10, 'at most 10 app ids'),
    ),
    [],
  ),
  /**
   * The hosts a link's rule may send visitors to (docs/smart-links.md): a host name, or `*.example.com`
   * for its subdomains. A rule's `url` on any other host is refused when written and never followed.
   */
  allowed_hosts: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(),
          v.regex(
            /^(?:\*\.)?(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/,
            'must be a host name in lower case, or *. and a domain',
          ),
        ),
      ),
      v.maxLength(100, 'at most 100 hosts'),
    ),
    [],
  ),
});

/** Attribution settings (docs/attribution.md). */
export const AttributionSchema = closed({
  /** How long a click may wait for its install to be matched without a carrier, in hours (1–24). */
  window_hours: v.optional(
    v.pipe(v.number(), v.integer('must be whole hours'), v.minValue(1), v.maxValue(24, 'at most 24 hours')),
    2,
  ),
  /** Whether the download page's taps also copy the carrier link (the landing page's always do). */
  copy_on_download: v.optional(v.boolean(), false),
  /** App Store Connect provider token: App Store links then carry `pt` and the channel as `ct`. */
  app_store_provider_token: v.optional(v.pipe(v.string(), v.regex(/^\d{1,20}$/, 'must be the numeric provider token'))),
});

/** The per-install fraud rules (docs/fraud.md); the anomalies are per inviter and channel. */
export const FRAUD_RULES = ['click_injection', 'too_fast', 'self_referral', 'busy_network'] as const;
export type FraudRule = (typeof FRAUD_RULES)[number];

const share = v.pipe(v.number(), v.minValue(0, 'must be 0–1'), v.maxValue(1, 'must be 0–1'));

/** Fraud flags (docs/fraud.md): the floors and thresholds, and which rules' flags leave the counted figures. */
export const FraudSchema = closed({
  /** Click to first launch faster than this (seconds) is flagged `too_fast`. */
  too_fast_seconds: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(3600, 'at most 3600 seconds')), 10),
  /** Rules whose flagged installs are left out of the counted installs (raw counts stay visible). */
  exclude: v.optional(v.array(v.picklist(FRAUD_RULES, `must be one of ${FRAUD_RULES.join(', ')}`)), []),
  anomaly: v.optional(
    closed({
      /** A day with fewer installs than this is never an anomaly. */
      min_installs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 20),
      /** Days of history a day's installs are compared with. */
      history_days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(90)), 14),
      /** A day above this many times the history's daily mean (at least 1) is a spike. */
      spike_factor: v.optional(v.pipe(v.number(), v.minValue(1)), 5),
      /** A day whose share of `too_fast` installs reaches this. */
      too_fast_share: v.optional(share, 0.5),
      /** A day whose share of installs from one network reaches this. */
      network_share: v.optional(share, 0.8),
    }),
    {},
  ),
});

/** A campaign field's name an app may fill (docs/campaign-links.md#invite-links-from-the-app). */
const inviteKey = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_.-]{1,32}$/, 'must be 1–32 of letters, digits, _ . -'),
  v.check(
    (key) => !['channel', 'inviter', 'rules', '__proto__', 'prototype', 'constructor'].includes(key),
    'channel and inviter are set apart, and rules, __proto__, prototype and constructor never come from an app',
  ),
);

/**
 * Invite links the app makes for its signed-in user (docs/campaign-links.md#invite-links-from-the-app):
 * off unless the operator turns them on, and then only with these channels and data fields.
 */
export const InvitesSchema = closed({
  /** Whether `POST /api/a/links` makes links for this app at all. */
  enabled: v.optional(v.boolean(), false),
  /** The channels an app's link may name; the first is used when it names none. */
  channels: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 of letters, digits, _ . -'))),
      v.minLength(1, 'needs at least one channel'),
      v.maxLength(20, 'at most 20 channels'),
    ),
    ['invite'],
  ),
  /** The campaign fields besides `channel` and `inviter` an app may set; none by default. */
  data_keys: v.optional(v.pipe(v.array(inviteKey), v.maxLength(10, 'at most 10 fields')), []),
  /** The longest value of such a field, in characters. */
  max_value_length: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(256, 'at most 256')), 64),
  /** The links one install may make a day. */
  per_day: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000, 'at most 1000')), 20),
});

/** The funnel's days (docs/operators.md#days-and-time-zones). */
export const FunnelSchema = closed({
  /** The IANA zone whose days the rollups and the stats' "today" are in. */
  time_zone: v.optional(
    v.pipe(v.string(), v.check(isTimeZone, 'must be an IANA time zone name such as "UTC" or "Asia/Shanghai"')),
    DEFAULT_TIME_ZONE,
  ),
});

const currencyCode = v.pipe(
  v.string(),
  v.check(isCurrency, 'must be an ISO 4217 currency code in capitals, such as USD, EUR or CNY'),
);

/**
 * Revenue in one reporting currency (docs/operators.md#revenue): the operator's own rates, how much
 * of `currency` one unit of each other currency is worth. A currency without a rate is reported on
 * its own, never guessed.
 */
export const RevenueSchema = closed({
  /** The currency `/api/stats` and the console report revenue in, beside each currency's own. */
  currency: v.optional(currencyCode),
  /** Per ISO 4217 code, one unit of it in `currency`: `{ "EUR": 1.08 }` when `currency` is USD. */
  rates: v.optional(
    v.pipe(
      v.record(
        currencyCode,
        v.pipe(
          v.number(),
          v.check((rate) => rate > 0 && rate <= 1e9, 'must be a rate above 0 and at most 1e9'),
          v.check((rate) => decimalsOf(rate) <= 12, 'must have at most 12 decimals'),
        ),
      ),
      v.check((rates) => Object.keys(rates).length <= 200, 'at most 200 rates'),
    ),
    {},
  ),
});

export const ConfigSchema = closed({
  /** A label the operator chooses for this document; `/test` shows it. */
  revision: text(64),
  appData: v.pipe(v.array(AppItemSchema), v.minLength(1, 'needs at least one app'), v.maxLength(6)),
  /** Download domains, probed in order by the browser (docs/config.md). */
  domains: v.optional(v.pipe(v.array(origin), v.maxLength(10, 'at most 10 domains')), []),
  commonConfig: CommonConfigSchema,
  links: v.optional(LinksSchema, {}),
  attribution: v.optional(AttributionSchema, {}),
  fraud: v.optional(FraudSchema, {}),
  funnel: v.optional(FunnelSchema, {}),
  revenue: v.optional(RevenueSchema, {}),
  invites: v.optional(InvitesSchema, {}),
  about: v.optional(AboutSchema),
  china: v.optional(ChinaSchema),
});

export type LocalText = v.InferOutput<typeof LocalTextSchema>;
export type AppItem = v.InferOutput<typeof AppItemSchema>;
export type CommonConfig = v.InferOutput<typeof CommonConfigSchema>;
export type LinksConfig = v.InferOutput<typeof LinksSchema>;
export type AttributionConfig = v.InferOutput<typeof AttributionSchema>;
export type FraudConfig = v.InferOutput<typeof FraudSchema>;
export type FunnelConfig = v.InferOutput<typeof FunnelSchema>;
export type RevenueConfig = v.InferOutput<typeof RevenueSchema>;
export type InvitesConfig = v.InferOutput<typeof InvitesSchema>;
export type AboutConfig = v.InferOutput<typeof AboutSchema>;
export type ChinaConfig = v.InferOutput<typeof ChinaSchema>;
/** A validated configuration document. */
export type LanderConfig = v.InferOutput<typeof ConfigSchema>;
/** What an operator writes (defaults not yet applied). */
export type LanderConfigInput = v.InferInput<typeof ConfigSchema>;
