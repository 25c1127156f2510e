/**
 * What the conversion tests share (docs/conversions.md): the admin API, the platforms' fake
 * (platform-fake.ts) and a driver that plays the conversion queue: each batch goes to the real
 * consumer, the deliveries it queues come back as the next messages, and every message it asks to
 * retry comes back with one more attempt until none is left; a retry after the last attempt is what
 * the queue moves to the dead-letter queue, handed to its real consumer.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { inject } from 'vitest';
import type { DestinationView } from '../../../shared/conversions.ts';
import { consumeConversionBatch, consumeConversionDeadLetters } from '../../../worker/conversions/consume.ts';
import type { DeliverOptions } from '../../../worker/conversions/deliver.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { MAX_ATTEMPTS } from '../../../worker/webhooks/retry-policy.ts';
import type { FakeLog } from './platform-fake.ts';

export const FAKE = inject('platformFake');
const ORIGIN = 'https://lander.test';

/** A fresh fake key, so tests never share a log. */
export const freshKey = (): string => `k${crypto.randomUUID().slice(0, 12)}`;

/** The environment whose platforms are the fake's, under `key`. */
export const fakeEnv = (key: string): Env => ({ ...env, CONVERSIONS_ORIGIN: `${FAKE}/${key}` });

/** A call to the conversions admin API with the development token. */
export function admin(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/api/conversions${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
}

/** Adds a destination; fails the test on a refusal. */
export async function addDestination(body: unknown): Promise<DestinationView> {
  const response = await admin('/destinations', { method: 'POST', body });
  if (response.status !== 201) throw new Error(`destination refused: ${response.status} ${await response.text()}`);
  return response.json<DestinationView>();
}

/** Removes every destination of the default app. */
export async function removeDestinations(): Promise<void> {
  const { destinations } = await (await admin('/destinations')).json<{ destinations: DestinationView[] }>();
  for (const destination of destinations) await admin(`/destinations/${destination.id}`, { method: 'DELETE' });
}

/** One destination of each platform, the postback to the fake under `key`. */
export function everyPlatform(key: string): unknown[] {
  return [
    { platform: 'meta', settings: { datasetId: '1234567890', appId: '987654321' }, token: 'EAAB-meta-token' },
    { platform: 'tiktok', settings: { tiktokAppId: '7000000001' }, token: 'tiktok-token' },
    { platform: 'ga4', settings: { measurementId: 'G-TEST1234' }, token: 'ga4-api-secret' },
    { platform: 'snap', settings: { snapAppId: 'a1b2c3d4-e5f6-4a5b-8c9d-0e1f2a3b4c5d' }, token: 'snap-token' },
    { platform: 'oceanengine', settings: {} },
    { platform: 'tencent', settings: { accountId: '1211673905', userActionSetId: '1200200685' }, token: 'gdt-token' },
    { platform: 'kuaishou', settings: {} },
    // Baidu's conversion types are the account's own numbers: 4 and 10 here, as a destination maps them.
    {
      platform: 'baidu',
      settings: { pageUrl: 'https://m.pebble.example/landing?from=baidu' },
      token: 'baidu-token',
      events: { install: '4', purchase: '10' },
    },
    {
      platform: 'postback',
      settings: { url: `${FAKE}/${key}/postback/hit?e={event_id}&n={event}&c={fbclid}&v={value}&cur={currency}` },
    },
  ];
}

export async function setFakeMode(key: string, mode: { failRate: number; seed: number }): Promise<void> {
  await fetch(`${FAKE}/mode/${key}`, { method: 'PUT', body: JSON.stringify(mode) });
}

export async function fakeLog(key: string): Promise<FakeLog> {
  return (await fetch(`${FAKE}/log/${key}`)).json<FakeLog>();
}

/** A queue that keeps what is sent to it, for the driver to hand back to the consumer. */
function recordingQueue(): { queue: Queue; sent: unknown[] } {
  const sent: unknown[] = [];
  const queue = {
    send: async (body: unknown) => {
      sent.push(body);
    },
    sendBatch: async (messages: Iterable<{ body: unknown }>) => {
      for (const message of messages) sent.push(message.body);
    },
  } as unknown as Queue;
  return { queue, sent };
}

export interface Driven {
  /** Messages the queue gave up on (handed to the dead-letter consumer). */
  dead: unknown[];
  retries: number;
}

/** Plays the conversion queue for `messages` in `base` (the fake's environment) until nothing is left. */
export async function drive(base: Env, messages: readonly unknown[], options: DeliverOptions = {}): Promise<Driven> {
  const { queue, sent } = recordingQueue();
  const run = { ...base, CONVERSION_QUEUE: queue };
  let serial = 0;
  const fresh = (body: unknown) => ({ id: `m${serial++}`, body, attempts: 1 });
  let pending = messages.map(fresh);
  const driven: Driven = { dead: [], retries: 0 };
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (let start = 0; start < pending.length; start += 100) {
      const chunk = pending.slice(start, start + 100);
      const batch = createMessageBatch(
        'lander-dev-conversions',
        chunk.map((message) => ({ ...message, timestamp: new Date() })),
      );
      const ctx = createExecutionContext();
      await consumeConversionBatch(batch, run, options);
      const result = await getQueueResult(batch, ctx);
      const byId = new Map(chunk.map((message) => [message.id, message]));
      for (const retry of result.retryMessages) {
        const message = byId.get(retry.msgId);
        if (!message) continue;
        driven.retries += 1;
        if (message.attempts >= MAX_ATTEMPTS) driven.dead.push(message.body);
        else next.push({ ...message, attempts: message.attempts + 1 });
      }
    }
    next.push(...sent.splice(0).map(fresh));
    pending = next;
  }
  if (driven.dead.length > 0) {
    const batch = createMessageBatch(
      'lander-dev-conversions-dead',
      driven.dead.map((body, at) => ({ id: `d${at}`, timestamp: new Date(), attempts: 1, body })),
    );
    await consumeConversionDeadLetters(batch, run);
  }
  return driven;
}
