/**
 * The JSON contract of `/api/a/*` (docs/attribution.md): the bodies the page and the app send,
 * checked here before anything is read, and the answer an app gets.
 */
import * as v from 'valibot';
import { AdClickSchema } from '../../shared/ad-click-schema.ts';
import { CLICK_ACTIONS, CLICK_ID, type ClickBody, STORES } from '../../shared/attribution.ts';
import { ATT_STATUSES, type ConsentReport, MAX_CONSENT_STRING } from '../../shared/consent.ts';
import { VARIANT_NAME } from '../../shared/link-rules.ts';
import { exponentOf, isCurrency, MAX_EVENT_AMOUNT, minorUnits } from '../../shared/money.ts';
import { SLUG } from '../campaign/links.ts';
import { MAX_TOKEN_LENGTH } from '../campaign/token.ts';
import {
  EVENT_NAME,
  EVENT_NAME_RULE,
  type InstallAnswer,
  MATCH_METHODS,
  MAX_EVENT_VALUE,
  OS_FAMILIES,
  UNMATCHED_REASONS,
} from '../facts.ts';
import { ExplainViewSchema } from './explanation-schema.ts';

/**
 * Largest body any `/api/a/*` call accepts (413 above): 12 KiB of its own (a batch of 50 events of
 * the longest fields is about 9 KiB), and room for the consent strings a tap, an install, an open or
 * a batch may carry with it (two of `MAX_CONSENT_STRING`, docs/privacy.md), so a person's consent
 * never costs them their call.
 */
export const MAX_BODY_BYTES = 12 * 1024 + 2 * MAX_CONSENT_STRING;

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `at most ${max} characters`));
const dimension = v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(20_000));
const timeZone = v.pipe(
  v.string(),
  v.maxLength(64),
  v.regex(/^(?:[A-Za-z][\w+-]*(?:\/[\w+-]+){0,2}|UTC|GMT)$/, 'must be an IANA time zone such as "Asia/Shanghai"'),
);
const languages = v.pipe(
  v.array(v.pipe(v.string(), v.regex(/^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8}){0,4}$/, 'must be language tags'))),
  v.minLength(1, 'needs at least one language'),
  v.maxLength(20),
);
const clickId = v.pipe(v.string(), v.regex(CLICK_ID, 'must be 22 characters of URL-safe base64'));
const installId = v.pipe(v.string(), v.regex(/^[\w.:-]{8,128}$/, 'must be 8–128 characters of A-Z a-z 0-9 _ . : -'));
const appId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{3,128}$/, 'must be a package name or bundle id'));
const carrierText = text(4096);
/** A test device's call (docs/attribution.md): answered as any, never counted, shown in the console. */
const testFlag = v.boolean('must be true or false');

const consentString = v.pipe(v.string(), v.maxLength(MAX_CONSENT_STRING, `at most ${MAX_CONSENT_STRING} characters`));
/**
 * The consent a page or an app reports (docs/privacy.md, "Consent"): what it stops is
 * shared/consent.ts's; a TCF or GPP string that does not decode stops everything.
 */
export const ConsentSchema = v.strictObject({
  gpc: v.optional(v.boolean('must be true or false')),
  tcf: v.optional(consentString),
  gpp: v.optional(consentString),
  tracking: v.optional(v.boolean('must be true or false')),
  att: v.optional(v.picklist(ATT_STATUSES, `must be one of ${ATT_STATUSES.join(', ')}`)),
}) satisfies v.GenericSchema<ConsentReport>;

/** The click beacon's body, held by the compiler to the `ClickBody` the page builds (shared/attribution.ts). */
export const ClickSchema = v.strictObject({
  clickId,
  action: v.picklist(CLICK_ACTIONS, `must be one of ${CLICK_ACTIONS.join(', ')}`),
  d: v.optional(text(MAX_TOKEN_LENGTH)),
  link: v.optional(v.pipe(v.string(), v.regex(SLUG, 'must be a short link slug (a-z 0-9 -, 3–48)'))),
  variant: v.optional(v.pipe(v.string(), v.regex(VARIANT_NAME, 'must be a variant name (A-Z a-z 0-9 _ -, 1–32)'))),
  visitorId: v.optional(text(128)),
  screen: v.strictObject({ w: dimension, h: dimension, dpr: v.pipe(v.number(), v.minValue(0.5), v.maxValue(8)) }),
  tz: timeZone,
  langs: languages,
  hints: v.optional(v.strictObject({ platformVersion: v.optional(text(32)), model: v.optional(text(64)) })),
  consent: v.optional(ConsentSchema),
  ad: v.optional(AdClickSchema),
}) satisfies v.GenericSchema<ClickBody>;

const EventNameSchema = v.pipe(v.string(), v.regex(EVENT_NAME, EVENT_NAME_RULE));

const epochSeconds = v.pipe(
  v.number('must be a number of seconds'),
  v.integer('must be whole seconds'),
  v.minValue(0),
  v.maxValue(4_102_444_800, 'must be seconds since 1970, before 2100'),
);
/**
 * The Play Install Referrer's times as `ReferrerDetails` gives them (seconds; 0 is unknown): the
 * click-injection and too-fast rules read them (docs/fraud.md).
 */
export const InstallReferrerSchema = v.strictObject({
  referrerClickTimestampSeconds: v.optional(epochSeconds),
  installBeginTimestampSeconds: v.optional(epochSeconds),
  referrerClickTimestampServerSeconds: v.optional(epochSeconds),
  installBeginTimestampServerSeconds: v.optional(epochSeconds),
});

/**
 * The channel id a maker's store reported for the install (docs/attribution.md#the-stores): its own
 * channel, never a carrier. An install no carrier's campaign names a channel for is counted under
 * `<store>:<channel>`.
 */
export const STORE_CHANNEL = /^[A-Za-z0-9_.:-]{1,64}$/;
export const StoreChannelSchema = v.strictObject({
  store: v.picklist(STORES, `must be one of ${STORES.join(', ')}`),
  channel: v.pipe(v.string(), v.regex(STORE_CHANNEL, 'must be 1–64 of A-Z a-z 0-9 _ . : -')),
});

export type StoreChannelInput = v.InferOutput<typeof StoreChannelSchema>;

/**
 * Meta's install referrer as the app read it from the Facebook, Instagram or Messenger app's content
 * provider (docs/attribution.md#metas-install-referrer): its `install_referrer`, `actual_timestamp`
 * and `is_ct` columns. The worker opens the sealed campaign data with the app's key from Meta.
 */
export const MetaReferrerSchema = v.strictObject({
  installReferrer: v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(4096, 'at most 4096 characters'),
  ),
  actualTimestamp: v.optional(epochSeconds),
  isCt: v.optional(v.boolean('must be true or false')),
});

export const InstallSchema = v.strictObject({
  app: appId,
  platform: v.picklist(OS_FAMILIES, `must be one of ${OS_FAMILIES.join(', ')}`),
  osVersion: v.pipe(v.string(), v.regex(/^\d{1,3}(?:\.\d{1,4}){0,3}$/, 'must be a version such as "17.5.1"')),
  model: v.optional(text(64)),
  screen: v.strictObject({ w: dimension, h: dimension, scale: v.pipe(v.number(), v.minValue(0.5), v.maxValue(8)) }),
  tz: timeZone,
  langs: languages,
  installId,
  test: v.optional(testFlag),
  carriers: v.optional(
    v.strictObject({
      clipboard: v.optional(carrierText),
      playReferrer: v.optional(carrierText),
      apk: v.optional(carrierText),
      harmonyLink: v.optional(carrierText),
      appGallery: v.optional(carrierText),
    }),
  ),
  installReferrer: v.optional(InstallReferrerSchema),
  metaReferrer: v.optional(MetaReferrerSchema),
  storeChannel: v.optional(StoreChannelSchema),
  consent: v.optional(ConsentSchema),
});

/**
 * `POST /api/a/identify`: the user signed in on an install (docs/fraud.md). Only a keyed hash of
 * `userId` is kept, for the self-referral rule.
 */
export const IdentifySchema = v.strictObject({
  app: appId,
  installId,
  userId: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'at most 256 characters')),
});

/** The fields `POST /api/a/links` takes; any other is refused by its name. */
const APP_LINK_FIELDS = 'app, installId, inviter, channel, data';

/**
 * `POST /api/a/links`: an invite link for the user signed in on an install
 * (docs/campaign-links.md#invite-links-from-the-app). What the operator allows (the channel, the data
 * fields and their length) is checked against the app's configuration after this.
 */
export const AppLinkSchema = v.strictObject(
  {
    app: appId,
    installId,
    /** The user id the install's `identify()` named. */
    inviter: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'at most 256 characters')),
    channel: v.optional(
      v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(64, 'at most 64 characters')),
    ),
    data: v.optional(
      v.pipe(
        // Checked on the parsed object itself: a record schema would quietly drop a name such as __proto__.
        v.custom<Record<string, unknown>>(
          (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
          'must be an object of text fields',
        ),
        v.check((record) => Object.keys(record).length <= 10, 'at most 10 fields'),
        v.check((record) => Object.values(record).every((value) => typeof value === 'string'), 'values must be text'),
        v.transform((record) => record as Record<string, string>),
      ),
    ),
  },
  `is not a field an invite link from the app takes (${APP_LINK_FIELDS})`,
);
export type AppLinkInput = v.InferOutput<typeof AppLinkSchema>;

export const OpenSchema = v.strictObject({
  app: appId,
  installId,
  carrier: carrierText,
  test: v.optional(testFlag),
  consent: v.optional(ConsentSchema),
});

/** The most events one batch carries. */
export const MAX_EVENT_BATCH = 50;
const eventId = v.pipe(v.string(), v.regex(/^[\w.:-]{8,64}$/, 'must be 8–64 characters of A-Z a-z 0-9 _ . : -'));
// Bounded to what a value can mean (docs/operators.md#bounds): past it, one event's value could
// overflow the day's sum it is added to.
const eventValue = v.pipe(
  v.number('must be a number'),
  v.finite('must be a finite number'),
  v.minValue(-MAX_EVENT_VALUE, 'must be between -1e12 and 1e12'),
  v.maxValue(MAX_EVENT_VALUE, 'must be between -1e12 and 1e12'),
);

/** How far past the worker's clock an event's `at` may be: a phone's clock runs a little ahead. */
export const EVENT_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How old an event's `at` may be: what the SDKs keep a queued event (docs/sdk.md). */
export const MAX_EVENT_AGE_MS = 30 * 24 * 60 * 60 * 1000;
// When the event happened (docs/attribution.md): ms since 1970, as `Date.now()` and Java's
// `System.currentTimeMillis()` give it; checked against the worker's clock when the call arrives.
const eventAt = v.pipe(
  v.number('must be a number of milliseconds since 1970'),
  v.description(
    'When the event happened on the device, in ms since 1970 (Date.now()): at most 5 minutes ahead of the ' +
      "worker's clock and 30 days behind it. Its cohort day is this moment's; without it, the time the call arrives.",
  ),
  v.safeInteger('must be a whole number of milliseconds since 1970'),
  v.check((at) => at <= Date.now() + EVENT_CLOCK_SKEW_MS, 'must not be more than 5 minutes in the future'),
  v.check((at) => at >= Date.now() - MAX_EVENT_AGE_MS, 'must be within the last 30 days'),
);

// Revenue (docs/operators.md#revenue): `value` in the currency's major unit, held to ISO 4217's
// minor unit so it counts exactly as an integer of them (shared/money.ts).
const eventCurrency = v.pipe(
  v.string('must be a text'),
  v.check(isCurrency, 'must be an ISO 4217 currency code in capitals, such as USD, EUR or CNY'),
);
type Money = { value?: number | undefined; currency?: string | undefined };
const priced = (event: Money): event is { value: number; currency: string } =>
  event.currency !== undefined && event.value !== undefined && exponentOf(event.currency) !== null;
/** The value of an event with a currency: present, in whole minor units, within the bound (each names `value`). */
function moneyChecks<T extends Money & Record<string, unknown>>() {
  // The path is `value` of whichever form checks it (a single event or a batch's item).
  const value = ['value'] as never;
  return [
    v.forward(
      v.check<T, string>(
        (event) => event.currency === undefined || event.value !== undefined,
        'is needed with currency',
      ),
      value,
    ),
    v.forward(
      v.check<T, (issue: v.CheckIssue<T>) => string>(
        (event) => !priced(event) || minorUnits(event.value, exponentOf(event.currency) ?? 0) !== null,
        ({ input }) => `must have at most ${exponentOf(input.currency ?? '')} decimals in ${input.currency}`,
      ),
      value,
    ),
    v.forward(
      v.check<T, (issue: v.CheckIssue<T>) => string>(
        (event) => !priced(event) || amountOf(event) !== null,
        ({ input }) => `must be within ±1e12 of ${input.currency}'s minor unit`,
      ),
      value,
    ),
  ] as const;
}

/** An event's amount in its currency's minor units, or null when it has no currency or cannot be one. */
export function amountOf({ value, currency }: Money): number | null {
  const exponent = currency === undefined ? null : exponentOf(currency);
  if (value === undefined || exponent === null) return null;
  const amount = minorUnits(value, exponent);
  return amount !== null && Math.abs(amount) <= MAX_EVENT_AMOUNT ? amount : null;
}

/**
 * An app event (docs/operators.md), e.g. `{ app, installId, name: 'register' }`: counted under the
 * install's campaign; with an `id`, counted once per `(app, installId, id)` however often it is sent.
 * With an `at`, its cohort day is that moment's (docs/operators.md#cohorts), however late it is sent.
 */
const appEventEntries = {
  app: appId,
  installId,
  id: v.optional(eventId),
  name: EventNameSchema,
  value: v.optional(eventValue),
  currency: v.optional(eventCurrency),
  at: v.optional(eventAt),
  consent: v.optional(ConsentSchema),
};
export const AppEventSchema = v.pipe(
  v.strictObject(appEventEntries),
  ...moneyChecks<v.InferOutput<v.StrictObjectSchema<typeof appEventEntries, undefined>>>(),
);

const batchEventEntries = {
  id: eventId,
  name: EventNameSchema,
  value: v.optional(eventValue),
  currency: v.optional(eventCurrency),
  at: v.optional(eventAt),
};
const BatchEventObject = v.strictObject(batchEventEntries);

/** Several app events of one install, each with its id (an SDK's queue sends these). */
export const AppEventBatchSchema = v.strictObject({
  app: appId,
  installId,
  consent: v.optional(ConsentSchema),
  events: v.pipe(
    v.array(v.pipe(v.strictObject(batchEventEntries), ...moneyChecks<v.InferOutput<typeof BatchEventObject>>())),
    v.minLength(1, 'needs at least one event'),
    v.maxLength(MAX_EVENT_BATCH, `at most ${MAX_EVENT_BATCH} events`),
  ),
});

/** Either form, for the document (openapi/document.ts). */
export const AppEventBodySchema = v.union([AppEventSchema, AppEventBatchSchema]);

/** Either form, checked by the one its body's shape names, so a problem is reported in that form's words. */
export const AppEventRequestSchema = v.lazy((input) =>
  typeof input === 'object' && input !== null && 'events' in input ? AppEventBatchSchema : AppEventSchema,
);

export type ClickInput = v.InferOutput<typeof ClickSchema>;
export type InstallInput = v.InferOutput<typeof InstallSchema>;
export type OpenInput = v.InferOutput<typeof OpenSchema>;
export type IdentifyInput = v.InferOutput<typeof IdentifySchema>;
export type AppEventInput = v.InferOutput<typeof AppEventSchema>;
export type AppEventBatchInput = v.InferOutput<typeof AppEventBatchSchema>;

const matchedAnswer = {
  matched: v.literal(true),
  method: v.picklist(MATCH_METHODS),
  /** 0–100: 100 for a carrier. */
  confidence: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)),
  /** The token's campaign fields; `{}` for a click without a campaign. */
  data: v.record(v.string(), v.string()),
  clickId: v.string(),
  /** ISO 8601, or null when the click's beacon never arrived. */
  clickedAt: v.nullable(v.string()),
};
const unmatchedAnswer = { matched: v.literal(false), reason: v.picklist(UNMATCHED_REASONS) };

/** What `/api/a/install` and `/api/a/open` answer an app: the facts' `InstallAnswer`. */
export const InstallAnswerSchema = v.variant('matched', [
  v.strictObject(matchedAnswer),
  v.strictObject(unmatchedAnswer),
]) satisfies v.GenericSchema<InstallAnswer>;

/** The answer as sent: a test device's (`test: true`) also carries `explain` (docs/attribution.md). */
export const AnswerResponseSchema = v.variant('matched', [
  v.strictObject({ ...matchedAnswer, explain: v.optional(ExplainViewSchema) }),
  v.strictObject({ ...unmatchedAnswer, explain: v.optional(ExplainViewSchema) }),
]);
