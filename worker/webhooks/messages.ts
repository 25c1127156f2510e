/**
 * The webhook queue's messages (docs/webhooks.md#delivery): an event as it happened, which the
 * consumer records and fans out, and one delivery of it to one endpoint. Both carry the webhook body
 * as the exact text that is signed, so every retry sends the same bytes under the same `webhook-id`.
 */
import * as v from 'valibot';
import { DEFAULT_APP } from '../../shared/apps.ts';
import { WEBHOOK_EVENT_TYPES } from '../../shared/webhooks.ts';

const Id = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/));
const Common = {
  /** The event's id; its `webhook-id` is `msg_<id>`, the same for every endpoint and attempt. */
  id: Id,
  type: v.picklist(WEBHOOK_EVENT_TYPES),
  /**
   * When the worker received the event (ms): its export day, its retention and the resend range. The
   * body's `timestamp` is when it happened (earlier for an app event sent late).
   */
  at: v.number(),
  /** The webhook body, JSON text. */
  body: v.pipe(v.string(), v.maxLength(64_000)),
  /** The app it happened in (docs/routes.md#apps); absent in messages queued before apps, `default`'s. */
  tenant: v.optional(v.pipe(v.string(), v.maxLength(64))),
};

export const EventMessageSchema = v.object({ k: v.literal('event'), ...Common });
export const DeliveryMessageSchema = v.object({ k: v.literal('delivery'), endpoint: Id, ...Common });
export const WebhookMessageSchema = v.variant('k', [EventMessageSchema, DeliveryMessageSchema]);

export type EventMessage = v.InferOutput<typeof EventMessageSchema>;
export type DeliveryMessage = v.InferOutput<typeof DeliveryMessageSchema>;
export type WebhookMessage = v.InferOutput<typeof WebhookMessageSchema>;

/** The app of a webhook message. */
export const appOfWebhook = (message: { tenant?: string | undefined }): string => message.tenant ?? DEFAULT_APP;

/** The `webhook-id` of event `id`. */
export const webhookId = (id: string): string => `msg_${id}`;

/** The event `id` of a `webhook-id`. */
export const eventIdOf = (webhookIdText: string): string => webhookIdText.slice('msg_'.length);
