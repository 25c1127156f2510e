/**
 * The delivery proof at volume (docs/webhooks.md#delivery): 10,000 events, recorded and fanned out by
 * the real code, delivered by the real consumer in queue-sized batches to a receiver on 127.0.0.1
 * that fails the first attempt of every message. Every event arrives, under the `webhook-id` it was
 * first sent with, and every request verifies with `standardwebhooks`.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { LOG_SIZE } from '../../../worker/webhooks/delivery-log.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { recordEvents } from '../../../worker/webhooks/fan-out.ts';
import type { DeliveryMessage } from '../../../worker/webhooks/messages.ts';
import { drive, endpointNow, freshKey, receiverEndpoint, receiverLog } from '../webhook-fixtures.ts';

const EVENTS = 10_000;

describe('10,000 events to a receiver that fails each first attempt', () => {
  it('delivers every one, verified, each webhook-id kept across its retry', async () => {
    const key = freshKey();
    const { endpoint } = await receiverEndpoint(key, 'fail-1', ['event']);
    const deliveries: DeliveryMessage[] = [];
    for (let start = 0; start < EVENTS; start += 100) {
      const events = Array.from({ length: 100 }, (_, n) =>
        eventMessage('event', {
          app: 'com.pebble.notes',
          install: 'bulk',
          name: 'bulk',
          value: start + n,
          matched: false,
          campaign: {},
          country: '',
        }),
      );
      deliveries.push(...(await recordEvents(env.FUNNEL_DB, events)));
    }
    expect(deliveries).toHaveLength(EVENTS);
    const started = Date.now();
    const driven = await drive(deliveries);
    const seconds = (Date.now() - started) / 1000;
    console.log(`${EVENTS} events, ${2 * EVENTS} attempts in ${seconds.toFixed(1)} s (${driven.batches} batches)`);
    expect(driven.dead).toEqual([]);
    expect(driven.retries).toBe(EVENTS);

    const log = await receiverLog(key);
    expect(log.unverified).toEqual([]);
    expect(log.verified).toBe(2 * EVENTS);
    const ids = Object.keys(log.attempts);
    expect(ids.sort()).toEqual(deliveries.map((delivery) => `msg_${delivery.id}`).sort());
    expect(Object.values(log.attempts).every((attempts) => attempts === 2)).toBe(true);
    const values = new Set(log.delivered.map((payload) => (payload as { data: { value: number } }).data.value));
    expect(values.size).toBe(EVENTS);
    expect((await endpointNow(endpoint.id)).counts).toEqual({ pending: 0, delivered: EVENTS, failed: 0, dead: 0 });
    // The delivery log keeps the newest 200 attempts of the endpoint, not 20,000.
    const logged = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM webhook_attempts WHERE endpoint_id = ?1')
      .bind(endpoint.id)
      .first<{ n: number }>();
    expect(logged?.n).toBe(LOG_SIZE);
  }, 120_000);
});
