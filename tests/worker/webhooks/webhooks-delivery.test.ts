/**
 * Webhook delivery inside workerd (docs/webhooks.md#delivery): events recorded and fanned out by the
 * real code into D1, deliveries sent by the real consumer with its real `fetch` to a receiver on
 * 127.0.0.1 that verifies each with `standardwebhooks`; the queue's redelivery is played by
 * `drive` (webhook-fixtures.ts), the dead-letter queue by `buryDead`.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEventData, AttemptView, EndpointView, EndpointWithSecret } from '../../../shared/webhooks.ts';
import { consumeWebhookBatch } from '../../../worker/webhooks/consume.ts';
import { consumeDeadLetters } from '../../../worker/webhooks/dead-letters.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { ROTATION_OVERLAP_MS } from '../../../worker/webhooks/endpoints.ts';
import { queueDeliveries, recordEvents } from '../../../worker/webhooks/fan-out.ts';
import type { DeliveryMessage } from '../../../worker/webhooks/messages.ts';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from '../../../worker/webhooks/retry-policy.ts';
import {
  admin,
  buryDead,
  drive,
  endpointNow,
  freshKey,
  receiverEndpoint,
  receiverLog,
  retryDelays,
  setMode,
  setSecret,
} from '../webhook-fixtures.ts';

const appEvent = (at: number): AppEventData => ({
  app: 'com.pebble.notes',
  install: 'hashed-install-id-0001',
  name: 'register',
  value: at,
  matched: true,
  campaign: { channel: 'spring' },
  country: 'NL',
});

/** `count` app events recorded and fanned out; the deliveries to `endpoint`. */
async function deliveriesTo(endpoint: string, count: number, at = Date.now()): Promise<DeliveryMessage[]> {
  const events = Array.from({ length: count }, (_, n) => eventMessage('event', appEvent(n), at));
  const deliveries: DeliveryMessage[] = [];
  for (let start = 0; start < events.length; start += 100) {
    deliveries.push(...(await recordEvents(env.FUNNEL_DB, events.slice(start, start + 100))));
  }
  return deliveries.filter((delivery) => delivery.endpoint === endpoint);
}

afterEach(async () => {
  const { endpoints } = await (await admin('')).json<{ endpoints: EndpointView[] }>();
  for (const endpoint of endpoints) await admin(`/${endpoint.id}`, { method: 'DELETE' });
});

describe('delivery', () => {
  it('retries a receiver that fails the first 2 attempts, with the same webhook-id and growing delays', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'fail-2');
    const deliveries = await deliveriesTo(endpoint.id, 30);
    expect(deliveries).toHaveLength(30);
    const driven = await drive(deliveries);
    expect(driven.dead).toEqual([]);
    expect(driven.retries).toBe(60);
    const delays = await retryDelays(endpoint.id);
    expect(delays).toEqual(
      new Map<number, Set<number | null>>([
        [1, new Set([RETRY_DELAYS_SECONDS[0]])],
        [2, new Set([RETRY_DELAYS_SECONDS[1]])],
        [3, new Set([null])],
      ]),
    );
    const log = await receiverLog(key);
    expect(log.unverified).toEqual([]);
    expect(log.verified).toBe(90);
    expect(Object.values(log.attempts)).toEqual(new Array(30).fill(3));
    expect(new Set(log.delivered.map((payload) => JSON.stringify(payload))).size).toBe(30);
    expect((await endpointNow(endpoint.id)).counts).toEqual({ pending: 0, delivered: 30, failed: 0, dead: 0 });
  });

  it('retries over more than 24 hours in all', () => {
    const total = RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(24 * 3600);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('waits at least what Retry-After asks after a 429', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'throttle');
    const [delivery] = await deliveriesTo(endpoint.id, 1);
    if (!delivery) throw new Error('no delivery');
    await setMode(key, 'throttle');
    const driven = await drive([delivery]);
    const delays = await retryDelays(endpoint.id);
    expect(delays.get(1)).toEqual(new Set([120]));
    // From the 3rd attempt on, the schedule's own delay is longer than the receiver's 120 s.
    expect(delays.get(3)).toEqual(new Set([RETRY_DELAYS_SECONDS[2]]));
    expect(delays.get(MAX_ATTEMPTS)).toEqual(new Set([null]));
    expect(driven.dead).toHaveLength(1);
  });

  it('counts every delivery to a receiver down for good as a dead letter, exactly, then resends the range', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'down');
    const from = Date.now();
    const deliveries = await deliveriesTo(endpoint.id, 40, from);
    const driven = await drive(deliveries);
    expect(driven.dead).toHaveLength(40);
    expect((await receiverLog(key)).requests).toBe(40 * MAX_ATTEMPTS);
    await buryDead(driven.dead);
    // A dead letter the queue hands over twice is still one.
    await buryDead(driven.dead.slice(0, 5));
    expect((await endpointNow(endpoint.id)).counts).toEqual({ pending: 0, delivered: 0, failed: 0, dead: 40 });

    await setMode(key, 'ok');
    const res = await admin(`/${endpoint.id}/resend`, {
      method: 'POST',
      body: { from: new Date(from - 1000).toISOString(), to: new Date(Date.now() + 1000).toISOString() },
    });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ resent: 40 });
    // The resent messages go through the real queue to the real consumer.
    await expect.poll(async () => (await receiverLog(key)).delivered.length, { timeout: 20_000 }).toBe(40);
    await expect.poll(async () => (await endpointNow(endpoint.id)).counts.delivered, { timeout: 10_000 }).toBe(40);
    const log = await receiverLog(key);
    expect(log.unverified).toEqual([]);
    expect(Object.keys(log.attempts).sort()).toEqual(deliveries.map((d) => `msg_${d.id}`).sort());
  });

  it('resends one message by its webhook-id', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'refuse');
    const [delivery] = await deliveriesTo(endpoint.id, 1);
    if (!delivery) throw new Error('no delivery');
    await drive([delivery]);
    expect((await endpointNow(endpoint.id)).counts.failed).toBe(1);
    await setMode(key, 'ok');
    const res = await admin(`/${endpoint.id}/resend`, { method: 'POST', body: { id: `msg_${delivery.id}` } });
    expect(res.status).toBe(202);
    await expect.poll(async () => (await receiverLog(key)).delivered.length, { timeout: 20_000 }).toBe(1);
    const missing = await admin(`/${endpoint.id}/resend`, { method: 'POST', body: { id: 'msg_nosuchmessage' } });
    expect(missing.status).toBe(404);
  });

  it('takes a 4xx other than 408/409/429 as final: one attempt, no retry', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'refuse');
    const driven = await drive(await deliveriesTo(endpoint.id, 3));
    expect(driven.retries).toBe(0);
    expect((await receiverLog(key)).requests).toBe(3);
    expect((await endpointNow(endpoint.id)).counts).toMatchObject({ failed: 3, dead: 0 });
    expect(await endpointNow(endpoint.id)).toMatchObject({ enabled: true, disabledReason: null });
    const { attempts } = await (await admin(`/${endpoint.id}/attempts`)).json<{ attempts: { status: number }[] }>();
    expect(attempts.map((attempt) => attempt.status)).toEqual([422, 422, 422]);
  });

  it('disables an endpoint whose receiver answers 410 Gone, through the real queue: no retry, nothing more sent', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'gone');
    const [first, queuedLater] = await deliveriesTo(endpoint.id, 2);
    if (!first || !queuedLater) throw new Error('no deliveries');
    await queueDeliveries(env.WEBHOOK_QUEUE, [first]);
    await expect.poll(async () => (await endpointNow(endpoint.id)).disabledReason, { timeout: 20_000 }).toBe('gone');
    expect(await endpointNow(endpoint.id)).toMatchObject({ enabled: false, counts: { failed: 1, pending: 1 } });
    const { attempts } = await (await admin(`/${endpoint.id}/attempts`)).json<{ attempts: AttemptView[] }>();
    expect(attempts).toEqual([
      expect.objectContaining({ attempt: 1, status: 410, error: 'HTTP 410: gone', retryInSeconds: null }),
    ]);

    // New events skip it; a delivery still in the queue becomes a dead letter without a request.
    expect(await deliveriesTo(endpoint.id, 1)).toEqual([]);
    await queueDeliveries(env.WEBHOOK_QUEUE, [queuedLater]);
    await expect.poll(async () => (await endpointNow(endpoint.id)).counts.dead, { timeout: 20_000 }).toBe(1);
    expect((await receiverLog(key)).requests).toBe(1);
    expect((await admin(`/${endpoint.id}/resend`, { method: 'POST', body: { id: 'msg_x' } })).status).toBe(409);
  });

  it('sends nothing more in the batch to an endpoint once its receiver answered 410', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'gone');
    const deliveries = await deliveriesTo(endpoint.id, 20);
    const driven = await drive(deliveries);
    expect(driven.retries).toBe(0);
    // At most the attempts already under way when the first 410 came back (6 at once).
    const { requests } = await receiverLog(key);
    expect(requests).toBeGreaterThanOrEqual(1);
    expect(requests).toBeLessThanOrEqual(6);
    const now = await endpointNow(endpoint.id);
    expect(now).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect(now.counts).toEqual({ pending: 0, delivered: 0, failed: requests, dead: 20 - requests });
  });

  it('follows no redirect: a 301 is final and its Location is never asked', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'moved');
    const driven = await drive(await deliveriesTo(endpoint.id, 1));
    expect(driven.retries).toBe(0);
    expect((await receiverLog(`${key}-moved`)).requests).toBe(0);
    const { attempts } = await (await admin(`/${endpoint.id}/attempts`)).json<{ attempts: { error: string }[] }>();
    expect(attempts[0]?.error).toBe(`redirect to /r/${key}-moved not followed`);
  });

  it('reads at most 64 KiB of a 10 MB answer and closes it', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'big');
    const driven = await drive(await deliveriesTo(endpoint.id, 2));
    expect(driven.retries).toBe(0);
    expect((await endpointNow(endpoint.id)).counts.delivered).toBe(2);
    await expect.poll(async () => (await receiverLog(key)).cutShort).toBe(2);
  });

  it('gives up on a receiver that answers after the 10 s timeout, and retries it', async () => {
    const key = freshKey();
    const { endpoint, secret } = await receiverEndpoint(key, 'sleep');
    const [delivery] = await deliveriesTo(endpoint.id, 1);
    if (!delivery) throw new Error('no delivery');
    const started = Date.now();
    const { attemptDelivery } = await import('../../../worker/webhooks/deliver.ts');
    const result = await attemptDelivery(
      { url: endpoint.url, secret, id: `msg_${delivery.id}`, body: delivery.body },
      'development',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
    expect(Date.now() - started).toBeLessThan(11_500);
    expect(result).toMatchObject({ verdict: 'retry', status: 0, error: 'no answer within 10 s' });
  }, 30_000);

  it('disables an endpoint that failed every attempt for 3 days, and sends it nothing more', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'down');
    const start = Date.now();
    const day = 86_400_000;
    await drive((await deliveriesTo(endpoint.id, 1)).slice(0, 1), { now: () => start });
    expect((await endpointNow(endpoint.id)).failingSince).toBe(new Date(start).toISOString());
    await drive(await deliveriesTo(endpoint.id, 1), { now: () => start + 2 * day });
    expect((await endpointNow(endpoint.id)).enabled).toBe(true);
    await drive(await deliveriesTo(endpoint.id, 1), { now: () => start + 3 * day });
    const disabled = await endpointNow(endpoint.id);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'failing' });

    const before = (await receiverLog(key)).requests;
    // The fan-out skips it; a delivery already queued is a dead letter without a request.
    expect(await deliveriesTo(endpoint.id, 1)).toEqual([]);
    await setMode(key, 'ok');
    const refused = await admin(`/${endpoint.id}/resend`, { method: 'POST', body: { id: 'msg_x' } });
    expect(refused.status).toBe(409);
    expect((await receiverLog(key)).requests).toBe(before);

    const enabled = await admin(`/${endpoint.id}`, { method: 'PATCH', body: { enabled: true } });
    expect(await enabled.json()).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });

    // Resending the range sends what failed and what happened while it was disabled: 3 dead, 1 never sent.
    const res = await admin(`/${endpoint.id}/resend`, {
      method: 'POST',
      body: { from: new Date(start - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(await res.json()).toEqual({ resent: 4 });
    await expect.poll(async () => (await receiverLog(key)).delivered.length, { timeout: 20_000 }).toBe(4);
  });

  it('signs deliveries with the new and the old secret for 24 hours after a rotation, then with the new alone', async () => {
    const key = freshKey();
    const { endpoint, secret: old } = await receiverEndpoint(key, 'ok');
    const rotated = await (await admin(`/${endpoint.id}/rotate`, { method: 'POST' })).json<EndpointWithSecret>();
    const [oldWithin, newWithin, oldAfter, newAfter] = await deliveriesTo(endpoint.id, 4);
    if (!oldWithin || !newWithin || !oldAfter || !newAfter) throw new Error('no deliveries');
    const within = { now: () => Date.now() + ROTATION_OVERLAP_MS - 60_000 };
    const after = { now: () => Date.now() + ROTATION_OVERLAP_MS + 60_000 };
    // The receiver holds the old secret, then the new one, first within the window, then after it.
    await drive([oldWithin], within);
    await setSecret(key, rotated.secret);
    await drive([newWithin], within);
    await drive([newAfter], after);
    await setSecret(key, old);
    await drive([oldAfter], after);
    const log = await receiverLog(key);
    expect(log.signatures).toEqual([2, 2, 1, 1]);
    expect(log.verified).toBe(3);
    expect(log.unverified).toEqual(['No matching signature found']);
    expect((await endpointNow(endpoint.id)).counts).toMatchObject({ delivered: 3, failed: 1 });
  });

  it('a success clears the failure state', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'fail-1');
    await drive(await deliveriesTo(endpoint.id, 1));
    expect((await endpointNow(endpoint.id)).failingSince).toBeNull();
  });
});

describe('the consumer', () => {
  /** One batch of `bodies` through the consumer (or the dead-letter consumer): its acks and retries. */
  async function once(bodies: unknown[], queue = 'lander-dev-webhooks') {
    const batch = createMessageBatch(
      queue,
      bodies.map((body, at) => ({ id: `c${at}`, timestamp: Date.now(), attempts: 1, body })),
    );
    const ctx = createExecutionContext();
    if (queue.endsWith('-dead')) await consumeDeadLetters(batch, env);
    else await consumeWebhookBatch(batch, env);
    return getQueueResult(batch, ctx);
  }

  it('records an event delivered twice once, and queues the same webhook-ids again', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'ok', ['event']);
    const event = eventMessage('event', appEvent(1));
    const first = await recordEvents(env.FUNNEL_DB, [event]);
    const again = await recordEvents(env.FUNNEL_DB, [event]);
    expect(again).toEqual(first);
    const rows = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE id = ?1')
      .bind(event.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    expect((await endpointNow(endpoint.id)).counts.pending).toBe(1);
  });

  it('acknowledges a malformed message without retrying it, and a delivery to a removed endpoint without a request', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'ok', ['event']);
    const [delivery] = await deliveriesTo(endpoint.id, 1);
    await admin(`/${endpoint.id}`, { method: 'DELETE' });
    const result = await once([{ k: 'delivery', nonsense: true }, delivery]);
    expect(result.explicitAcks.sort()).toEqual(['c0', 'c1']);
    expect(result.retryMessages).toEqual([]);
    expect((await receiverLog(key)).requests).toBe(0);
    expect(logged).toHaveBeenCalledWith('Webhook message dropped', expect.any(String));
    logged.mockRestore();
  });

  it('records an event message that ended in the dead-letter queue, for the export', async () => {
    const event = eventMessage('event', appEvent(2));
    const result = await once([event], 'lander-dev-webhooks-dead');
    expect(result.ackAll).toBe(true);
    const row = await env.FUNNEL_DB.prepare('SELECT type FROM webhook_events WHERE id = ?1')
      .bind(event.id)
      .first<{ type: string }>();
    expect(row?.type).toBe('event');
  });
});
