/**
 * Hands an event to the webhooks (docs/webhooks.md): the funnel's counting points and the links API
 * call `emitWebhook` beside their own counting. The event is made and queued after the response
 * (`waitUntil`); a failure is logged, never thrown, so webhooks never delay or break an answer.
 */
import { DEFAULT_APP } from '../../shared/apps.ts';
import { toBase64Url } from '../../shared/base64url.ts';
import type { WebhookDataOf, WebhookEventType, WebhookPayload } from '../../shared/webhooks.ts';
import { sendOrCountLoss } from '../reliability/queue-send.ts';
import type { EventMessage } from './messages.ts';

type Waiter = Pick<ExecutionContext, 'waitUntil'>;

/**
 * The queue message of a `type` event with `data`, received at `at` (ms: its day in the export).
 * `id` is the event's own id when the caller has a stable one (an app event the SDK named): a second
 * arrival is the same event. `happened` is the payload's `timestamp`, when the app said its event
 * happened earlier (`at` of `POST /api/a/event`); otherwise `at`.
 */
export function eventMessage<T extends WebhookEventType>(
  type: T,
  data: WebhookDataOf[T],
  at = Date.now(),
  id = toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
  tenant = DEFAULT_APP,
  happened = at,
): EventMessage {
  const payload: WebhookPayload<T> = { type, timestamp: new Date(happened).toISOString(), data };
  return { k: 'event', id, type, at, body: JSON.stringify(payload), tenant };
}

const report = (error: unknown) =>
  console.error('Webhook event not queued', error instanceof Error ? error.message : String(error));

/**
 * Queues `message`, retried once and then counted as lost (worker/reliability/queue-send.ts); a
 * retry keeps its id, so a receiver tells a repeat by its `webhook-id` (docs/webhooks.md).
 */
function queueEvent(env: Env, message: EventMessage): Promise<void> {
  return sendOrCountLoss(env, {
    send: () => env.WEBHOOK_QUEUE.send(message),
    loss: 'webhook-events',
    count: 1,
    report,
  });
}

/** An event's own id, when it has a stable one, and its times (ms): received (`at`) and `happened`. */
export interface EventTimes {
  id?: string | undefined;
  /** When the worker received it (its fact's `at`): the day its export line is in. Now by default. */
  at?: number | undefined;
  /** When it happened, if earlier (an app event's own `at`): its `timestamp`. */
  happened?: number | undefined;
}

/**
 * Queues a `type` event after the response; `data` may be a promise (a keyed hash, a decrypted token)
 * and is awaited then.
 */
export function emitWebhook<T extends WebhookEventType>(
  env: Env,
  app: string,
  ctx: Waiter,
  type: T,
  data: WebhookDataOf[T] | Promise<WebhookDataOf[T]>,
  { id, at = Date.now(), happened = at }: EventTimes = {},
): void {
  ctx.waitUntil(
    Promise.resolve(data)
      .then((made) => queueEvent(env, eventMessage(type, made, at, id, app, happened)))
      .catch(report),
  );
}
