/**
 * Each platform's request as its documentation describes it, in JSON Schema (docs/conversions.md
 * cites the section each is written from). The local fake of the platforms (platform-fake.ts) holds
 * every request to its platform's schema and answers 400 to one that breaks it, as the platform would.
 */

const nonEmpty = { type: 'string', minLength: 1 } as const;
const seconds = { type: 'integer', minimum: 1_500_000_000, maximum: 4_102_444_800 } as const;

/** Meta Conversions API, "Conversions API for App Events" and "App Data Parameters". */
export const metaSchema = {
  type: 'object',
  required: ['data', 'access_token'],
  additionalProperties: false,
  properties: {
    access_token: nonEmpty,
    data: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['event_name', 'event_time', 'action_source', 'user_data', 'app_data'],
        properties: {
          event_name: nonEmpty,
          event_time: seconds,
          event_id: nonEmpty,
          action_source: { const: 'app' },
          user_data: {
            type: 'object',
            minProperties: 1,
            properties: {
              anon_id: nonEmpty,
              fbc: { type: 'string', pattern: '^fb\\.1\\.\\d{13}\\.[\\x21-\\x7e]+$' },
            },
          },
          app_data: {
            type: 'object',
            required: ['advertiser_tracking_enabled', 'application_tracking_enabled', 'extinfo'],
            properties: {
              advertiser_tracking_enabled: { enum: [0, 1] },
              application_tracking_enabled: { enum: [0, 1] },
              extinfo: {
                type: 'array',
                minItems: 16,
                maxItems: 16,
                items: { type: 'string' },
                prefixItems: [{ enum: ['i2', 'a2'] }, nonEmpty],
              },
            },
          },
        },
      },
    },
  },
} as const;

/** TikTok Events API 2.0, "Report app events" (`event_source: app`). */
export const tiktokSchema = {
  type: 'object',
  required: ['event_source', 'event_source_id', 'data'],
  additionalProperties: false,
  properties: {
    event_source: { const: 'app' },
    event_source_id: { type: 'string', pattern: '^\\d+$' },
    data: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      items: {
        type: 'object',
        required: ['event', 'event_time', 'app'],
        additionalProperties: false,
        properties: {
          event: nonEmpty,
          event_time: seconds,
          event_id: nonEmpty,
          app: { type: 'object', required: ['app_id'], properties: { app_id: nonEmpty } },
          user: {
            type: 'object',
            properties: { external_id: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
          },
          ad: { type: 'object', required: ['callback'], properties: { callback: nonEmpty } },
          properties: { type: 'object' },
        },
      },
    },
  },
} as const;

/** GA4 names GA4 reserves ("Measurement Protocol: reserved names"). */
const GA4_RESERVED = [
  'ad_activeview',
  'ad_click',
  'ad_exposure',
  'ad_query',
  'ad_reward',
  'adunit_exposure',
  'app_background',
  'app_clear_data',
  'app_exception',
  'app_remove',
  'app_store_refund',
  'app_store_subscription_cancel',
  'app_store_subscription_convert',
  'app_store_subscription_renew',
  'app_update',
  'app_upgrade',
  'dynamic_link_app_open',
  'dynamic_link_app_update',
  'dynamic_link_first_open',
  'error',
  'firebase_campaign',
  'firebase_in_app_message_action',
  'firebase_in_app_message_dismiss',
  'firebase_in_app_message_impression',
  'first_open',
  'first_visit',
  'in_app_purchase',
  'notification_dismiss',
  'notification_foreground',
  'notification_open',
  'notification_receive',
  'os_update',
  'session_start',
  'session_start_with_rollout',
  'user_engagement',
];

/** GA4 Measurement Protocol, "Send events" and "Events: naming rules". */
export const ga4Schema = {
  type: 'object',
  required: ['client_id', 'events'],
  additionalProperties: false,
  properties: {
    client_id: nonEmpty,
    timestamp_micros: { type: 'integer', minimum: 1_500_000_000_000_000 },
    events: {
      type: 'array',
      minItems: 1,
      maxItems: 25,
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: {
            type: 'string',
            pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$',
            not: { anyOf: [{ enum: GA4_RESERVED }, { pattern: '^(_|firebase_|ga_|google_|gtag\\.)' }] },
          },
          params: {
            type: 'object',
            maxProperties: 25,
            propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9_]{0,39}$' },
            additionalProperties: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'number' }] },
          },
        },
      },
    },
  },
} as const;

/** Ocean Engine (巨量引擎) conversion API v2, "转化回传" (`/api/v2/conversion`). */
export const oceanEngineSchema = {
  type: 'object',
  required: ['event_type', 'context', 'timestamp'],
  additionalProperties: false,
  properties: {
    event_type: { enum: ['active', 'active_register', 'active_pay', 'next_day_open', 'game_addiction', 'form'] },
    context: {
      type: 'object',
      required: ['ad'],
      properties: { ad: { type: 'object', required: ['callback'], properties: { callback: nonEmpty } } },
    },
    timestamp: { type: 'integer', minimum: 1_500_000_000_000 },
  },
} as const;

/** What the fake holds each platform to, by the path's first segment. */
export const PLATFORM_SCHEMAS = {
  meta: metaSchema,
  tiktok: tiktokSchema,
  ga4: ga4Schema,
  oceanengine: oceanEngineSchema,
} as const;
