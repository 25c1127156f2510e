/**
 * The answers of the public API as schemas, for the OpenAPI document (document.ts). Each is held by
 * the compiler to the type its route builds (`satisfies`), so the document cannot drift from the
 * code; the request schemas are the routes' own, imported as they are.
 */
import * as v from 'valibot';
import {
  type InstallLookupView,
  LINK_SOURCES,
  type LinkView,
  STATS_GROUPINGS,
  type StatsRow,
  type TestDeviceView,
  type TestInstallView,
} from '../../shared/admin-contract.ts';
import { CLICK_ID, type ClickIdsAnswer } from '../../shared/attribution.ts';
import type { DeviceInfo } from '../../shared/device/types.ts';
import { LinkPreviewSchema } from '../../shared/link-preview.ts';
import { RulesSchema } from '../../shared/link-rules.ts';
import { InstallAnswerSchema } from '../attribution/contract.ts';
import { ExplainViewSchema } from '../attribution/explanation-schema.ts';
import type { StatsResult } from '../funnel/stats-query.ts';

const counts = v.record(v.string(), v.number());
const iso = v.pipe(v.string(), v.isoTimestamp());

/** `{ "error": "<field>: <reason>" }`: every refusal. */
export const ErrorSchema = v.strictObject({ error: v.string() });

/** `GET /api/a/click-ids`: ids of the click id's own spelling (22 characters of URL-safe base64). */
export const ClickIdsSchema = v.strictObject({
  clickIds: v.array(v.pipe(v.string(), v.regex(CLICK_ID))),
}) satisfies v.GenericSchema<ClickIdsAnswer>;

export const DeviceInfoSchema = v.strictObject({
  userAgent: v.string(),
  operatingSystem: v.picklist(['PC', 'iOS', 'Android', 'Harmony']),
  browser: v.string(),
  referrer: v.string(),
  width: v.number(),
  height: v.number(),
  device_model: v.string(),
  device_model_name: v.string(),
  device_version: v.string(),
  device_system_name: v.string(),
  device_locale: v.string(),
  language: v.string(),
  mobile: v.boolean(),
  os: v.string(),
  osVersion: v.string(),
  inApp: v.nullable(
    v.strictObject({
      name: v.string(),
      category: v.picklist(['messaging', 'payment', 'social', 'search']),
      blocksDownloads: v.boolean(),
      blocksSchemes: v.boolean(),
      version: v.optional(v.string()),
      universalLinks: v.optional(v.boolean()),
    }),
  ),
  bot: v.boolean(),
}) satisfies v.GenericSchema<DeviceInfo>;

export const TraceSchema = v.strictObject({ userId: v.pipe(v.string(), v.uuid()) });

export const LinkViewSchema = v.strictObject({
  slug: v.string(),
  url: v.pipe(v.string(), v.url()),
  shortUrl: v.pipe(v.string(), v.url()),
  qr: v.pipe(v.string(), v.url()),
  qrPng: v.pipe(v.string(), v.url()),
  data: v.record(v.string(), v.string()),
  createdAt: iso,
  expiresAt: v.nullable(iso),
  rules: RulesSchema,
  hasPassword: v.boolean(),
  preview: v.nullable(LinkPreviewSchema),
  source: v.picklist(LINK_SOURCES),
}) satisfies v.GenericSchema<LinkView>;

export const LinksSchema = v.strictObject({ links: v.array(LinkViewSchema) });

const StatsRowSchema = v.strictObject({
  key: v.string(),
  views: v.number(),
  visitors: v.number(),
  taps: v.number(),
  installs: v.number(),
  opens: v.number(),
  events: counts,
  values: counts,
  byPage: counts,
  byAction: counts,
  byMethod: counts,
  attributed: v.number(),
  organic: v.number(),
  byUnmatched: counts,
  rates: v.strictObject({
    tap: v.nullable(v.number()),
    install: v.nullable(v.number()),
    events: v.record(v.string(), v.nullable(v.number())),
  }),
  flagged: v.strictObject({ installs: v.number(), byRule: counts, excluded: v.number() }),
  countedInstalls: v.number(),
  // Revenue per currency in minor units, and in the reporting currency (docs/operators.md#revenue).
  revenue: v.optional(
    v.record(
      v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
      v.strictObject({
        events: v.pipe(v.number(), v.integer()),
        amount: v.pipe(v.number(), v.integer()),
        refunds: v.pipe(v.number(), v.integer()),
        exponent: v.pipe(v.number(), v.integer()),
      }),
    ),
  ),
  reported: v.optional(
    v.strictObject({
      currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
      amount: v.pipe(v.number(), v.integer()),
      exponent: v.pipe(v.number(), v.integer()),
      unconverted: v.array(v.string()),
    }),
  ),
}) satisfies v.GenericSchema<StatsRow>;

export const StatsResultSchema = v.strictObject({
  from: v.pipe(v.string(), v.isoDate()),
  to: v.pipe(v.string(), v.isoDate()),
  by: v.picklist(STATS_GROUPINGS),
  channel: v.optional(v.string()),
  inviter: v.optional(v.string()),
  link: v.optional(v.string()),
  compare: v.optional(v.picklist(['previous'])),
  rows: v.array(StatsRowSchema),
  previous: v.optional(
    v.strictObject({
      from: v.pipe(v.string(), v.isoDate()),
      to: v.pipe(v.string(), v.isoDate()),
      totals: StatsRowSchema,
    }),
  ),
  timeZone: v.optional(v.string()),
}) satisfies v.GenericSchema<StatsResult>;

/** A kept answer: as the app got it, without a test device's `explain`. */
const answer = InstallAnswerSchema;

export const TestInstallsSchema = v.strictObject({
  installs: v.array(
    v.strictObject({
      id: v.number(),
      at: iso,
      kind: v.picklist(['install', 'open']),
      app: v.string(),
      platform: v.string(),
      device: v.string(),
      answer,
      explain: ExplainViewSchema,
      repeat: v.boolean(),
    }) satisfies v.GenericSchema<TestInstallView>,
  ),
});

/** A registered test device. */
export const TestDeviceSchema = v.strictObject({
  id: v.number(),
  app: v.string(),
  device: v.string(),
  label: v.string(),
  createdAt: iso,
}) satisfies v.GenericSchema<TestDeviceView>;

export const TestDevicesSchema = v.strictObject({ devices: v.array(TestDeviceSchema) });

export const InstallLookupSchema = v.strictObject({
  answer,
  test: v.boolean(),
  answeredAt: v.nullable(iso),
  explain: ExplainViewSchema,
  flags: v.array(v.strictObject({ rule: v.string(), reason: v.string() })),
}) satisfies v.GenericSchema<InstallLookupView>;
