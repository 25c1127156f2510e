/**
 * The webhook queue's consumer (docs/webhooks.md#delivery). Event messages are recorded and fanned
 * out (fan-out.ts); delivery messages are sent, a few at a time, and each is acknowledged when
 * delivered or refused for good, or retried with the schedule's delay (retry-policy.ts). After the
 * last attempt the queue moves it to the dead-letter queue (dead-letters.ts). A delivery to a removed
 * endpoint is dropped; one to a disabled endpoint — or to one whose receiver answered `410 Gone`
 * earlier in the batch — is a dead letter at once, kept for "resend".
 */
import * as v from 'valibot';
import { settingsOf } from '../settings.ts';
import { attemptDelivery, TIMEOUT_MS } from './deliver.ts';
import { type Outcome, recordOutcomes } from './delivery-log.ts';
import { everyEndpoint, previousSecretAt } from './endpoints.ts';
import { withoutErased } from './erased.ts';
import { queueDeliveries, recordEvents } from './fan-out.ts';
import { appOfWebhook, type DeliveryMessage, type EventMessage, WebhookMessageSchema, webhookId } from './messages.ts';
import { GONE_STATUS, MAX_ATTEMPTS, retryDelaySeconds } from './retry-policy.ts';

/** Attempts made at once: a worker invocation keeps at most 6 connections open. */
const CONCURRENCY = 6;
/** Seconds before a batch of events whose recording failed is tried again. */
const EVENT_RETRY_SECONDS = 10;

export interface ConsumeOptions {
  /** The time the attempts are dated by (ms); tests move it to reach the 3-day limit. */
  now?: () => number;
  /** How long an attempt may take. */
  timeoutMs?: number;
}

const report = (what: string, error: unknown) =>
  console.error(what, error instanceof Error ? error.message : String(error));

async function fanOut(env: Env, messages: Message[], events: EventMessage[], now: number): Promise<void> {
  try {
    await queueDeliveries(env.WEBHOOK_QUEUE, await recordEvents(env.FUNNEL_DB, events, now));
    for (const message of messages) message.ack();
  } catch (error) {
    report('Webhook events not recorded, retrying', error);
    for (const message of messages) message.retry({ delaySeconds: EVENT_RETRY_SECONDS });
  }
}

async function deliverAll(
  env: Env,
  work: { message: Message; delivery: DeliveryMessage }[],
  { now = Date.now, timeoutMs = TIMEOUT_MS }: ConsumeOptions,
): Promise<void> {
  // Endpoints are few: one read of them all serves the whole batch.
  const endpoints = new Map((await everyEndpoint(env.FUNNEL_DB)).map((endpoint) => [endpoint.id, endpoint]));
  const { env: mode, webhookResolver: resolver } = settingsOf(env);
  const outcomes: Outcome[] = [];
  // Endpoints whose receiver answered 410 in this batch: disabled when the batch is recorded, and sent nothing more.
  const gone = new Set<string>();
  const one = async ({ message, delivery }: (typeof work)[number]): Promise<void> => {
    const endpoint = endpoints.get(delivery.endpoint);
    // A delivery names its app: an endpoint of another app never gets it (docs/routes.md#apps).
    if (!endpoint || endpoint.app !== appOfWebhook(delivery)) return message.ack();
    if (!endpoint.enabled || gone.has(endpoint.id)) {
      outcomes.push({
        message: delivery,
        attempt: 0,
        status: 'dead',
        httpStatus: 0,
        latencyMs: 0,
        error: '',
        retryIn: null,
      });
      return message.ack();
    }
    const { url, secret } = endpoint;
    // During a rotation's overlap the old secret signs too, so a receiver not yet told still verifies.
    const previousSecret = previousSecretAt(endpoint, now());
    const target = { url, secret, previousSecret, id: webhookId(delivery.id), body: delivery.body };
    const result = await attemptDelivery(target, mode, { timeoutMs, resolver });
    if (result.status === GONE_STATUS) gone.add(endpoint.id);
    const last = message.attempts >= MAX_ATTEMPTS;
    const status =
      result.verdict === 'delivered' ? 'delivered' : result.verdict === 'final' ? 'failed' : last ? 'dead' : 'pending';
    const { status: httpStatus, latencyMs, error } = result;
    const retryIn = result.verdict === 'retry' ? retryDelaySeconds(message.attempts, result.retryAfter) : null;
    outcomes.push({
      message: delivery,
      attempt: message.attempts,
      status,
      httpStatus,
      latencyMs,
      error,
      retryIn: last ? null : retryIn,
    });
    // After the last attempt this retry is what moves the message to the dead-letter queue.
    if (retryIn === null) message.ack();
    else message.retry({ delaySeconds: retryIn });
  };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < work.length) {
      const item = work[next];
      next += 1;
      if (item) await one(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, work.length) }, lane));
  try {
    await recordOutcomes(env.FUNNEL_DB, outcomes, now());
  } catch (error) {
    // The deliveries themselves stand; only their log and state are missing.
    report('Webhook delivery log not written', error);
  }
}

/** The queue handler of the webhook queue. */
export async function consumeWebhookBatch(
  batch: MessageBatch<unknown>,
  env: Env,
  options: ConsumeOptions = {},
): Promise<void> {
  const events: EventMessage[] = [];
  const eventHandles: Message[] = [];
  const deliveries: { message: Message; delivery: DeliveryMessage }[] = [];
  for (const message of batch.messages) {
    const parsed = v.safeParse(WebhookMessageSchema, message.body);
    if (!parsed.success) {
      // A malformed message never becomes valid: retrying it would only block the good ones.
      console.error('Webhook message dropped', v.summarize(parsed.issues));
      message.ack();
    } else if (parsed.output.k === 'event') {
      events.push(parsed.output);
      eventHandles.push(message);
    } else deliveries.push({ message, delivery: parsed.output });
  }
  const now = (options.now ?? Date.now)();
  // A message of a subject erased since it was queued is dropped unsent and unrecorded (erased.ts).
  const handles = new Map<{ id: string; body: string }, Message>([
    ...events.map((event, at) => [event, eventHandles[at] as Message] as const),
    ...deliveries.map(({ message, delivery }) => [delivery, message] as const),
  ]);
  let kept: Set<{ id: string; body: string }>;
  try {
    const sorted = await withoutErased(env.FUNNEL_DB, [...handles.keys()], now);
    for (const message of sorted.dropped) handles.get(message)?.ack();
    kept = new Set(sorted.kept);
  } catch (error) {
    report('Webhook batch not checked for erased subjects, retrying', error);
    for (const message of handles.values()) message.retry({ delaySeconds: EVENT_RETRY_SECONDS });
    return;
  }
  const keptEvents = events.filter((event) => kept.has(event));
  const keptDeliveries = deliveries.filter(({ delivery }) => kept.has(delivery));
  await Promise.all([
    keptEvents.length > 0
      ? fanOut(
          env,
          keptEvents.map((event) => handles.get(event) as Message),
          keptEvents,
          now,
        )
      : undefined,
    keptDeliveries.length > 0 ? deliverAll(env, keptDeliveries, options) : undefined,
  ]);
}
