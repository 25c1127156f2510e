/**
 * Each platform's request as its documentation describes it, in JSON Schema (docs/conversions.md
 * cites the section each is written from). The local fake of the platforms (platform-fake.ts) holds
 * every request to its platform's schema and answers 400 to one that breaks it, as the platform would.
 */

const nonEmpty = { type: 'string', minLength: 1 } as const;
const seconds = { type: 'integer', minimum: 1_500_000_000, maximum: 4_102_444_800 } as const;
/** An ISO 4217 code, as every platform asks for one. */
const currency = { type: 'string', pattern: '^[A-Z]{3}$' } as const;
/** A value in the major unit: no platform's document takes a negative one. */
const amount = { type: 'number', minimum: 0 } as const;
/** Whole fen (分), the Chinese platforms' unit. */
const fen = { type: 'integer', minimum: 0 } as const;
/** The 16 device fields Meta's app events take (`extinfo`), which Snap takes as Meta does: `i2` or `a2`, then the package. */
const extinfo = {
  type: 'array',
  minItems: 16,
  maxItems: 16,
  items: { type: 'string' },
  prefixItems: [{ enum: ['i2', 'a2'] }, nonEmpty],
} as const;

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
              extinfo,
            },
          },
          // "Custom Data Parameters": `value` needs its `currency`.
          custom_data: {
            type: 'object',
            properties: { value: amount, currency },
            dependentRequired: { value: ['currency'] },
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
          properties: {
            type: 'object',
            properties: { value: amount, currency },
            dependentRequired: { value: ['currency'] },
          },
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
            // "Send events": a `value` counts only with its `currency`.
            properties: { value: amount, currency },
            dependentRequired: { value: ['currency'] },
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

/** Snap Conversions API, "Using the API" (app endpoint, the request body's `data`, `app_data`, `user_data`, `custom_data`). */
export const snapSchema = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: {
    data: {
      type: 'array',
      minItems: 1,
      maxItems: 2000,
      items: {
        type: 'object',
        required: ['event_name', 'event_time', 'action_source', 'user_data'],
        additionalProperties: false,
        properties: {
          event_name: {
            enum: [
              'APP_INSTALL',
              'APP_OPEN',
              'SIGN_UP',
              'PURCHASE',
              'ADD_CART',
              'START_CHECKOUT',
              'SUBSCRIBE',
              'START_TRIAL',
              'LEVEL_COMPLETE',
              'COMPLETE_TUTORIAL',
              'LOGIN',
              'SHARE',
              'INVITE',
              'CUSTOM_EVENT_1',
              'CUSTOM_EVENT_2',
              'CUSTOM_EVENT_3',
              'CUSTOM_EVENT_4',
              'CUSTOM_EVENT_5',
            ],
          },
          event_time: seconds,
          event_id: nonEmpty,
          action_source: { const: 'MOBILE_APP' },
          app_data: {
            type: 'object',
            required: ['extinfo'],
            properties: {
              advertiser_tracking_enabled: { enum: [0, 1] },
              extinfo,
            },
          },
          user_data: {
            type: 'object',
            minProperties: 1,
            additionalProperties: false,
            properties: {
              external_id: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
              sc_click_id: nonEmpty,
            },
          },
          // The example's `value` is a decimal string.
          custom_data: {
            type: 'object',
            required: ['value', 'currency'],
            properties: { value: { type: 'string', pattern: '^\\d+(\\.\\d+)?$' }, currency },
          },
        },
      },
    },
  },
} as const;

/** Tencent Ads (腾讯广告) Marketing API `user_actions/add` ("APP转化数据API自归因", its request parameters). */
export const tencentSchema = {
  type: 'object',
  required: ['account_id', 'user_action_set_id', 'actions'],
  additionalProperties: false,
  properties: {
    account_id: { type: 'integer', minimum: 1 },
    user_action_set_id: { type: 'integer', minimum: 1 },
    actions: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['action_time', 'action_type', 'trace'],
        additionalProperties: false,
        properties: {
          outer_action_id: nonEmpty,
          action_time: { type: 'integer', minimum: 1_500_000_000, maximum: 2_147_483_647 },
          action_type: {
            enum: ['ACTIVATE_APP', 'REGISTER', 'PURCHASE', 'START_APP', 'COMPLETE_ORDER', 'CREATE_ROLE', 'CUSTOM'],
          },
          // `user_id` and `click_id` are one or the other: Lander has the click id.
          trace: { type: 'object', required: ['click_id'], properties: { click_id: nonEmpty } },
          // "订单金额,单位:分".
          action_param: { type: 'object', properties: { value: fen } },
        },
      },
    },
  },
} as const;

/** Kuaishou (快手) conversion callback, `track/activate`'s query (`callback`, `event_type`, `event_time` in ms, `purchase_amount` in yuan). */
export const kuaishouSchema = {
  type: 'object',
  required: ['callback', 'event_type', 'event_time'],
  additionalProperties: false,
  properties: {
    callback: nonEmpty,
    event_type: { type: 'string', pattern: '^\\d{1,4}$' },
    event_time: { type: 'string', pattern: '^\\d{13}$' },
    // "单位元,可保留两位小数".
    purchase_amount: { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' },
  },
  // A payment (3, 12–15) must carry its amount.
  if: { properties: { event_type: { enum: ['3', '12', '13', '14', '15'] } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
  then: { required: ['purchase_amount'] },
} as const;

/** Baidu (百度) OCPC `uploadConvertData` (its request: `token`, `conversionTypes`). */
export const baiduSchema = {
  type: 'object',
  required: ['token', 'conversionTypes'],
  additionalProperties: false,
  properties: {
    token: nonEmpty,
    conversionTypes: {
      type: 'array',
      minItems: 1,
      maxItems: 99,
      items: {
        type: 'object',
        required: ['logidUrl', 'newType'],
        additionalProperties: false,
        properties: {
          // "带有 bd_vid=xxx 的落地页 url 地址".
          logidUrl: { type: 'string', pattern: '^https?://[^\\s]+[?&]bd_vid=[^&\\s]+' },
          newType: { type: 'integer', minimum: 1 },
          deviceType: { enum: [0, 1, 2] },
          convertTime: seconds,
          // "转化金额(单位分)".
          convertValue: fen,
        },
      },
    },
  },
} as const;

/** What the fake holds each platform to, by the path's first segment. */
export const PLATFORM_SCHEMAS = {
  meta: metaSchema,
  tiktok: tiktokSchema,
  ga4: ga4Schema,
  snap: snapSchema,
  oceanengine: oceanEngineSchema,
  tencent: tencentSchema,
  kuaishou: kuaishouSchema,
  baidu: baiduSchema,
} as const;
