/**
 * What the webhook tests share (docs/webhooks.md): the admin API, the receiver on 127.0.0.1
 * (webhook-receiver.ts) and a driver that plays the queue for a set of deliveries: each batch goes
 * to the real consumer, and every message it asks to retry comes back with one more attempt, until
 * none is left; a retry after the last attempt is what the queue moves to the dead-letter queue.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { inject } from 'vitest';
import type { AttemptView, EndpointView, EndpointWithSecret } from '../../shared/webhooks.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';
import { type ConsumeOptions, consumeWebhookBatch } from '../../worker/webhooks/consume.ts';
import { consumeDeadLetters } from '../../worker/webhooks/dead-letters.ts';
import type { DeliveryMessage } from '../../worker/webhooks/messages.ts';
import { MAX_ATTEMPTS } from '../../worker/webhooks/retry-policy.ts';
import type { ReceiverLog } from './webhook-receiver.ts';

export const RECEIVER = inject('webhookReceiver');
const ORIGIN = 'https://lander.test';

/** A fresh receiver key, so tests never share a log. */
export const freshKey = (): string => `k${crypto.randomUUID().slice(0, 12)}`;

/**
 * A name the receiver's resolver answers with one record holding `address` exactly as written (AAAA
 * when it has a colon): its hex in labels of at most 60 characters, under `answer.test`.
 */
export function answerName(address: string): string {
  const hex = Array.from(new TextEncoder().encode(address), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.match(/.{1,60}/g)?.join('.') ?? ''}.answer.test`;
}

/** A call to the admin API with the development token. */
export function admin(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/api/webhooks${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
}

/** Sets how `/r/<key>` answers. */
export async function setMode(key: string, mode: string): Promise<void> {
  await fetch(`${RECEIVER}/mode/${key}`, { method: 'PUT', body: mode });
}

/** Tells the receiver the secret of `key`'s endpoint. */
export async function setSecret(key: string, secret: string): Promise<void> {
  await fetch(`${RECEIVER}/secret/${key}`, { method: 'POST', body: secret });
}

/** What reached `/r/<key>`. */
export async function receiverLog(key: string): Promise<ReceiverLog> {
  return (await fetch(`${RECEIVER}/log/${key}`)).json<ReceiverLog>();
}

/** An endpoint at `/r/<key>` answering in `mode`, its secret known to the receiver. */
export async function receiverEndpoint(
  key: string,
  mode: string,
  events?: string[],
): Promise<{ endpoint: EndpointView; secret: string }> {
  await setMode(key, mode);
  const res = await admin('', { method: 'POST', body: { url: `${RECEIVER}/r/${key}`, ...(events ? { events } : {}) } });
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${await res.text()}`);
  const made = await res.json<EndpointWithSecret>();
  await setSecret(key, made.secret);
  return made;
}

/** An endpoint as the API lists it now. */
export async function endpointNow(id: string): Promise<EndpointView> {
  return (await admin(`/${id}`)).json<EndpointView>();
}

export interface Driven {
  /** Deliveries the consumer asked to retry after their last attempt: the queue's dead letters. */
  dead: DeliveryMessage[];
  /** Retries the consumer asked for. */
  retries: number;
  /** Batches handed to the consumer. */
  batches: number;
}

/** The delays the delivery log of `endpoint` gives after each attempt number (its newest 200 attempts). */
export async function retryDelays(endpoint: string): Promise<Map<number, Set<number | null>>> {
  const res = await admin(`/${endpoint}/attempts?limit=200`);
  const { attempts } = await res.json<{ attempts: AttemptView[] }>();
  const delays = new Map<number, Set<number | null>>();
  for (const attempt of attempts) {
    const of = delays.get(attempt.attempt) ?? new Set<number | null>();
    of.add(attempt.retryInSeconds);
    delays.set(attempt.attempt, of);
  }
  return delays;
}

/** Plays the queue for `deliveries` (batches of 100) until every message is acknowledged or dead. */
export async function drive(deliveries: readonly DeliveryMessage[], options: ConsumeOptions = {}): Promise<Driven> {
  let pending = deliveries.map((body, at) => ({ id: `m${at}`, body, attempts: 1 }));
  const driven: Driven = { dead: [], retries: 0, batches: 0 };
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (let start = 0; start < pending.length; start += 100) {
      const chunk = pending.slice(start, start + 100);
      const batch = createMessageBatch(
        'lander-dev-webhooks',
        chunk.map((message) => ({ ...message, timestamp: Date.now() })),
      );
      const ctx = createExecutionContext();
      await consumeWebhookBatch(batch, env, options);
      const result = await getQueueResult(batch, ctx);
      driven.batches += 1;
      const byId = new Map(chunk.map((message) => [message.id, message]));
      for (const retry of result.retryMessages) {
        const message = byId.get(retry.msgId);
        if (!message) continue;
        driven.retries += 1;
        if (message.attempts >= MAX_ATTEMPTS) driven.dead.push(message.body);
        else next.push({ ...message, attempts: message.attempts + 1 });
      }
    }
    pending = next;
  }
  return driven;
}

/** Hands `dead` to the dead-letter queue's consumer, as the queue does after the last attempt. */
export async function buryDead(dead: readonly DeliveryMessage[]): Promise<void> {
  for (let start = 0; start < dead.length; start += 100) {
    const batch = createMessageBatch(
      'lander-dev-webhooks-dead',
      dead
        .slice(start, start + 100)
        .map((body, at) => ({ id: `d${start + at}`, timestamp: Date.now(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    await consumeDeadLetters(batch, env);
    await getQueueResult(batch, ctx);
  }
}
