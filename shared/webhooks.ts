/**
 * The webhooks contract (docs/webhooks.md): the events Lander sends to the operator's endpoints and
 * writes to the daily exports, their payloads, and the admin API's bodies and answers for
 * `/api/webhooks`. The worker that sends and the console that manages both read this one module.
 */
import * as v from 'valibot';

/** Every event type an endpoint may subscribe to. `click` is sent only to endpoints that name it. */
export const WEBHOOK_EVENT_TYPES = [
  'install',
  'open',
  'event',
  'click',
  'link.created',
  'link.updated',
  'link.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What an endpoint gets when it names no event types: everything but `click`. */
export const DEFAULT_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'click');

/** The export partitions (`exports/<kind>/date=…`): an event type's part before the dot. */
export const EXPORT_KINDS = ['install', 'open', 'event', 'click', 'link'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The export partition of `type`. */
export const kindOf = (type: WebhookEventType): ExportKind => type.split('.')[0] as ExportKind;

/** How an install or an open was matched, as attribution answers it (docs/attribution.md). */
export const MATCH_METHODS = [
  'clipboard',
  'referrer',
  'apk',
  'harmony',
  'meta',
  'appgallery',
  'probabilistic',
] as const;
export type MatchMethod = (typeof MATCH_METHODS)[number];
/** Why an install or an open was not matched (docs/attribution.md). */
export const UNMATCHED_REASONS = ['none', 'ambiguous', 'expired', 'unavailable', 'claimed'] as const;
/** The OS families an app reports at install (its `platform`). */
export const OS_FAMILIES = ['ios', 'android', 'harmony'] as const;

// The payloads are schemas, not only types: the OpenAPI document's webhooks section is generated
// from them (worker/openapi/document.ts), so it cannot drift from what is sent.
const Campaign = v.record(v.string(), v.string());
const IsoTime = v.pipe(v.string(), v.isoTimestamp());

/**
 * An install or an open: matched (method, confidence, the signed campaign data) or not (reason).
 * `install` is a keyed hash of the app's install id, never the id itself (docs/webhooks.md).
 */
export const InstallDataSchema = v.object({
  app: v.string(),
  /** `ios`, `android`, `harmony`; null on an open, which names none. */
  platform: v.nullable(v.picklist(OS_FAMILIES)),
  install: v.string(),
  matched: v.boolean(),
  method: v.nullable(v.picklist(MATCH_METHODS)),
  /** 0–100, null when not matched. */
  confidence: v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
  /** The signed campaign token's fields; `{}` when not matched or the click had no campaign. */
  campaign: Campaign,
  /** ISO 8601 time of the matched tap, null when unknown or not matched. */
  clickedAt: v.nullable(IsoTime),
  /** Why it was not matched: `none`, `ambiguous`, `expired`, `unavailable` (docs/reliability.md); null when matched. */
  reason: v.nullable(v.picklist(UNMATCHED_REASONS)),
  /** The fraud rules that flagged the install when it was answered (docs/fraud.md): `click_injection`, `too_fast`, `self_referral`, `busy_network`. */
  flags: v.array(v.string()),
  /** Cloudflare's two-letter country of the call, `''` when unknown. */
  country: v.string(),
});
export type InstallData = v.InferOutput<typeof InstallDataSchema>;

/** An app event (`POST /api/a/event`), under the campaign of its install's answer. */
export const AppEventDataSchema = v.object({
  app: v.string(),
  install: v.string(),
  name: v.string(),
  value: v.nullable(v.number()),
  /** `value`'s ISO 4217 code when the app named one (docs/operators.md#revenue); absent otherwise. */
  currency: v.optional(v.string()),
  matched: v.boolean(),
  campaign: Campaign,
  country: v.string(),
});
export type AppEventData = v.InferOutput<typeof AppEventDataSchema>;

/** A person's tap on a page's action (never a bot's), under the page's signed campaign. */
export const ClickDataSchema = v.object({
  action: v.string(),
  campaign: Campaign,
  /** The short link's slug the page was reached by, null for none. */
  link: v.nullable(v.string()),
  os: v.string(),
  country: v.string(),
  lang: v.string(),
});
export type ClickData = v.InferOutput<typeof ClickDataSchema>;

/** A short link made, changed or removed. */
export const LinkDataSchema = v.object({
  slug: v.string(),
  data: Campaign,
  createdAt: IsoTime,
  /** Null for a link that never expires. */
  expiresAt: v.nullable(IsoTime),
});
export type LinkData = v.InferOutput<typeof LinkDataSchema>;

/** Each event type's `data` schema. */
export const WEBHOOK_DATA = {
  install: InstallDataSchema,
  open: InstallDataSchema,
  event: AppEventDataSchema,
  click: ClickDataSchema,
  'link.created': LinkDataSchema,
  'link.updated': LinkDataSchema,
  'link.deleted': LinkDataSchema,
} as const satisfies Record<WebhookEventType, v.GenericSchema>;

/** The JSON body of a `type` webhook: the event type, when it happened (ISO 8601), its data. */
export function webhookPayloadSchema<T extends WebhookEventType>(type: T) {
  return v.object({ type: v.literal(type), timestamp: IsoTime, data: WEBHOOK_DATA[type] });
}

/** Each event type's `data`. */
export type WebhookDataOf = { [T in WebhookEventType]: v.InferOutput<(typeof WEBHOOK_DATA)[T]> };

/** The JSON body of a webhook, and a line of an export with `id` (the `webhook-id`) added. */
export interface WebhookPayload<T extends WebhookEventType = WebhookEventType> {
  type: T;
  /** ISO 8601 time the event happened. */
  timestamp: string;
  data: WebhookDataOf[T];
}

/** An export line: the webhook body and its `webhook-id`. */
export type ExportLine = WebhookPayload & { id: string };

const EventTypes = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, `must be among ${WEBHOOK_EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'needs at least one event type'),
  v.maxLength(WEBHOOK_EVENT_TYPES.length),
);
const Url = v.pipe(v.string(), v.maxLength(2048, 'at most 2048 characters'));
const Description = v.pipe(v.string(), v.maxLength(200, 'at most 200 characters'));

/** `POST /api/webhooks`: a new endpoint. */
export const EndpointCreateSchema = v.strictObject({
  url: Url,
  events: v.optional(EventTypes),
  description: v.optional(Description),
  enabled: v.optional(v.boolean()),
});
export type EndpointCreate = v.InferOutput<typeof EndpointCreateSchema>;

/** `PATCH /api/webhooks/<id>`: the fields to change. Enabling clears a "disabled after failing". */
export const EndpointUpdateSchema = v.strictObject({
  url: v.optional(Url),
  events: v.optional(EventTypes),
  description: v.optional(Description),
  enabled: v.optional(v.boolean()),
});
export type EndpointUpdate = v.InferOutput<typeof EndpointUpdateSchema>;

const Time = v.pipe(
  v.string(),
  v.isoTimestamp('must be an ISO 8601 time with its zone'),
  v.transform((text) => Date.parse(text)),
);

/** `POST /api/webhooks/<id>/resend`: one message by its `webhook-id`, or every undelivered one in a time range. */
export const ResendSchema = v.union([
  v.strictObject({ id: v.pipe(v.string(), v.regex(/^msg_[\w-]{1,64}$/, 'must be a webhook-id (msg_…)')) }),
  v.strictObject({ from: Time, to: Time }),
]);
export type ResendRequest = v.InferOutput<typeof ResendSchema>;

/** Delivery counts of an endpoint, by where each event stands. */
export interface DeliveryCounts {
  pending: number;
  delivered: number;
  /** Refused for good by the endpoint (a 3xx, or a 4xx other than 408/409/429). */
  failed: number;
  /** Given up on after every retry, or skipped while the endpoint was disabled: the dead letters. */
  dead: number;
}

/** Why an endpoint is disabled (docs/webhooks.md#delivery). */
export const DISABLED_REASONS = ['failing', 'gone', 'operator'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** An endpoint as the API shows it (never its secret). */
export interface EndpointView {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  /**
   * `failing`: disabled after 3 days of failed attempts; `gone`: the receiver answered `410 Gone`;
   * `operator`: turned off; null when enabled.
   */
  disabledReason: DisabledReason | null;
  /** ISO 8601 time of the first failure since the last success, null when the last attempt succeeded. */
  failingSince: string | null;
  /**
   * ISO 8601 end of the overlap after a rotation: until then each delivery is also signed with the
   * secret the rotation replaced (docs/webhooks.md#signing); null when there is none.
   */
  previousSecretUntil: string | null;
  createdAt: string;
  updatedAt: string;
  counts: DeliveryCounts;
}

/** The answer to creating an endpoint or rotating its secret: the only time the secret is shown. */
export interface EndpointWithSecret {
  endpoint: EndpointView;
  /** `whsec_<base64>`: the Standard Webhooks signing secret. */
  secret: string;
}

/** One delivery attempt in an endpoint's log. */
export interface AttemptView {
  /** The `webhook-id`. */
  id: string;
  type: WebhookEventType | 'test';
  attempt: number;
  /** ISO 8601. */
  at: string;
  /** The HTTP status, 0 when there was no answer (timeout, network error, refused address). */
  status: number;
  latencyMs: number;
  /** Why it failed, `''` when it succeeded. */
  error: string;
  /** Seconds until the next attempt, null when none follows. */
  retryInSeconds: number | null;
}
