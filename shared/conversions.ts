/**
 * The conversions contract (docs/conversions.md): the ad platforms an app reports its installs and
 * events to, each destination's settings, and the admin API's bodies and answers for
 * `/api/conversions/destinations`. The worker that sends and the console that manages both read it.
 */
import * as v from 'valibot';

/** The platforms a destination sends to; `postback` is any other network, by a URL template. */
export const CONVERSION_PLATFORMS = [
  'meta',
  'tiktok',
  'ga4',
  'snap',
  'oceanengine',
  'tencent',
  'kuaishou',
  'baidu',
  'postback',
] as const;
export type ConversionPlatform = (typeof CONVERSION_PLATFORMS)[number];

/** Lander's events a destination may send: an install, an open, and the app's own events by name. */
export const LANDER_CONVERSION_EVENTS = ['install', 'open'] as const;

const Digits = (what: string) => v.pipe(v.string(), v.regex(/^\d{1,32}$/, `must be ${what} (digits)`));
const Name = v.pipe(v.string(), v.maxLength(80, 'at most 80 characters'));

/** Meta Conversions API for App Events: the dataset (pixel) id and the Meta app id. */
export const MetaSettingsSchema = v.strictObject({
  datasetId: Digits('the dataset id'),
  appId: Digits('the Meta app id'),
});
/** TikTok Events API 2.0: the TikTok App ID of the app in Events Manager. */
export const TikTokSettingsSchema = v.strictObject({ tiktokAppId: Digits('the TikTok App ID') });
/** GA4 Measurement Protocol: the data stream's measurement id (the API secret is the token). */
export const Ga4SettingsSchema = v.strictObject({
  measurementId: v.pipe(v.string(), v.regex(/^G-[A-Z0-9]{4,20}$/, 'must be a measurement id such as G-ABC123')),
});
/** Snap Conversions API (app events): the Snap App ID of the app in Snap's Events Manager. */
export const SnapSettingsSchema = v.strictObject({
  snapAppId: v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/, 'must be the Snap App ID (letters, digits, -)')),
});
/** Ocean Engine (巨量引擎) conversion callback: nothing beyond the click's own callback. */
export const OceanEngineSettingsSchema = v.strictObject({});
/** Tencent Ads (腾讯广告) `user_actions/add`: the ad account and the data source (user action set) ids. */
export const TencentSettingsSchema = v.strictObject({
  accountId: v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be the ad account id (digits)')),
  userActionSetId: v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be the data source id (digits)')),
});
/** Kuaishou (快手) conversion callback: nothing beyond the click's own callback. */
export const KuaishouSettingsSchema = v.strictObject({});
/** Baidu (百度) OCPC: the landing page's address as the account registered it (`bd_vid` is added to it). */
export const BaiduSettingsSchema = v.strictObject({
  pageUrl: v.pipe(v.string(), v.regex(/^https?:\/\/[^\s]{3,1000}$/, 'must be the landing page URL (http or https)')),
});
/**
 * A generic postback: a URL template (https) and, for POST, a body template; `{macro}`s are filled
 * per event (docs/conversions.md#the-generic-postback).
 */
export const PostbackSettingsSchema = v.strictObject({
  url: v.pipe(v.string(), v.minLength(8, 'must be a URL'), v.maxLength(2048, 'at most 2048 characters')),
  method: v.optional(v.picklist(['GET', 'POST'], 'must be GET or POST')),
  body: v.optional(v.pipe(v.string(), v.maxLength(8192, 'at most 8192 characters'))),
});

export const SETTINGS_SCHEMAS = {
  meta: MetaSettingsSchema,
  tiktok: TikTokSettingsSchema,
  ga4: Ga4SettingsSchema,
  snap: SnapSettingsSchema,
  oceanengine: OceanEngineSettingsSchema,
  tencent: TencentSettingsSchema,
  kuaishou: KuaishouSettingsSchema,
  baidu: BaiduSettingsSchema,
  postback: PostbackSettingsSchema,
} as const satisfies Record<ConversionPlatform, v.GenericSchema>;

export type SettingsOf = { [P in ConversionPlatform]: v.InferOutput<(typeof SETTINGS_SCHEMAS)[P]> };

/** Which platforms need a token (an access token, an API secret) to be sent anything. */
export const NEEDS_TOKEN: Readonly<Record<ConversionPlatform, boolean>> = {
  meta: true,
  tiktok: true,
  ga4: true,
  snap: true,
  oceanengine: false,
  tencent: true,
  kuaishou: false,
  baidu: true,
  postback: false,
};

/** Lander's event name → the platform's; an event not named here is sent under the platform's default, if any. */
const EventMap = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9_.-]{0,39}$/, 'names are a-z 0-9 _ . - (at most 40)')),
    v.pipe(v.string(), v.regex(/^[\w.-]{1,64}$/, 'must be a platform event name (letters, digits, _ . -, at most 64)')),
  ),
  v.check((map) => Object.keys(map).length <= 50, 'at most 50 events'),
);

const Token = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(1024, 'at most 1024 characters'));

/** `POST /api/conversions/destinations`. `settings` is checked against the platform's schema. */
export const DestinationCreateSchema = v.strictObject({
  platform: v.picklist(CONVERSION_PLATFORMS, `must be one of ${CONVERSION_PLATFORMS.join(', ')}`),
  name: v.optional(Name),
  settings: v.record(v.string(), v.unknown()),
  token: v.optional(Token),
  events: v.optional(EventMap),
  enabled: v.optional(v.boolean()),
});
export type DestinationCreate = v.InferOutput<typeof DestinationCreateSchema>;

/** `PATCH /api/conversions/destinations/<id>`: the fields to change; the platform never changes. */
export const DestinationUpdateSchema = v.strictObject({
  name: v.optional(Name),
  settings: v.optional(v.record(v.string(), v.unknown())),
  token: v.optional(Token),
  events: v.optional(EventMap),
  enabled: v.optional(v.boolean()),
});
export type DestinationUpdate = v.InferOutput<typeof DestinationUpdateSchema>;

/** Where a destination's deliveries stand. */
export interface ConversionCounts {
  pending: number;
  delivered: number;
  failed: number;
  dead: number;
}

/** A destination as the API answers it: never its token, only whether it has one. */
export interface DestinationView {
  id: string;
  platform: ConversionPlatform;
  name: string;
  settings: Record<string, unknown>;
  hasToken: boolean;
  events: Record<string, string>;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  counts: ConversionCounts;
}

/** One attempt of one delivery, as the log shows it. */
export interface ConversionAttemptView {
  eventId: string;
  /** Lander's event name (`install`, `open`, `register`, …). */
  name: string;
  attempt: number;
  /** HTTP status; 0 for no answer. */
  status: number;
  outcome: 'delivered' | 'retry' | 'failed' | 'dead';
  latencyMs: number;
  error: string;
  at: string;
}

/** What "send test event" got. */
export interface ConversionTestResult {
  delivered: boolean;
  status: number;
  latencyMs: number;
  error: string;
}
