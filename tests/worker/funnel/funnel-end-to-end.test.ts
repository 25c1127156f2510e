/**
 * The funnel end to end inside workerd (docs/operators.md): events handed to `recordEvent` go through
 * the real queue to the consumer and D1, and `/api/stats` gives exactly the known truth of the
 * synthetic traffic. Each test uses its own channel; the queue's batches arrive after at most a
 * second (wrangler.toml), so each test waits on its figures, never a fixed time.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../../shared/time-zone.ts';
import { type EventInput, NO_DIMENSIONS } from '../../../worker/funnel/events.ts';
import { messageOf, recordEvent } from '../../../worker/funnel/record-event.ts';
import type { StatsResult, StatsRow } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { freshChannel } from '../funnel-fixtures.ts';

const AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)';

async function record(inputs: EventInput[]): Promise<void> {
  const ctx = createExecutionContext();
  for (const input of inputs) recordEvent(env, ctx, input);
  await waitOnExecutionContext(ctx);
}

async function stats(query: string): Promise<StatsResult> {
  const res = await exports.default.fetch(
    new Request(`https://lander.test/api/stats?${query}`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }),
  );
  expect(res.status).toBe(200);
  return res.json();
}

/** The rows of `query` once its first row has `views` views (counts only grow). */
async function settled(query: string, views: number): Promise<StatsRow[]> {
  await expect.poll(async () => (await stats(query)).rows[0]?.views ?? 0, { timeout: 20_000 }).toBe(views);
  return (await stats(query)).rows;
}

/** A synthetic day: three people (known by address and agent), taps, installs, app events. */
function traffic(channel: string): EventInput[] {
  const dims = { ...NO_DIMENSIONS, channel, os: 'iOS', lang: 'en' };
  const ann = { address: '203.0.113.4', agent: AGENT };
  const bob = { address: '203.0.113.5', agent: AGENT };
  const cai = { address: '203.0.113.6', agent: AGENT };
  const view = { type: 'view', page: 'landing' } as const;
  return [
    { event: view, dims, visitor: ann },
    { event: view, dims, visitor: ann },
    { event: { type: 'view', page: 'short' }, dims: { ...dims, link: 'spring' }, visitor: ann },
    { event: { type: 'tap', action: 'download' }, dims },
    { event: { type: 'tap', action: 'guide' }, dims },
    { event: view, dims: { ...dims, plainChannel: 'typed-in' }, visitor: bob },
    { event: view, dims, visitor: bob },
    { event: { type: 'tap', action: 'store' }, dims },
    { event: view, dims: { ...dims, os: 'Android' }, visitor: cai },
    { event: { type: 'install', method: 'clipboard' }, dims },
    { event: { type: 'install', method: 'clipboard' }, dims },
    { event: { type: 'install', method: 'referrer' }, dims },
    { event: { type: 'open', method: 'clipboard' }, dims },
    { event: { type: 'event', name: 'register' }, dims },
    { event: { type: 'event', name: 'register' }, dims },
    { event: { type: 'event', name: 'purchase', value: 9.5 }, dims },
  ];
}

describe('the funnel, from recordEvent to /api/stats', () => {
  it('counts views, visitors once a day, taps per action, installs per method, opens and app events exactly', async () => {
    const channel = freshChannel();
    await record(traffic(channel));
    const [row] = await settled(`by=channel&channel=${channel}`, 6);
    expect(row).toEqual({
      key: channel,
      views: 6,
      visitors: 3,
      taps: 3,
      installs: 3,
      opens: 1,
      events: { register: 2, purchase: 1 },
      values: { register: 0, purchase: 9.5 },
      // No event named a currency: no revenue (docs/operators.md#revenue).
      revenue: {},
      byPage: { landing: 5, short: 1 },
      byAction: { download: 1, guide: 1, store: 1 },
      byMethod: { clipboard: 2, referrer: 1 },
      attributed: 3,
      organic: 0,
      byUnmatched: {},
      rates: { tap: 0.5, install: 1, events: { register: 0.6667, purchase: 0.3333 } },
      // Counted through the funnel alone: no install here went through the fraud rules.
      flagged: { installs: 0, byRule: {}, excluded: 0 },
      countedInstalls: 3,
    });
  });

  it('counts a visitor once in each group they were seen in', async () => {
    const channel = freshChannel();
    await record(traffic(channel));
    const rows = await settled(`by=os&channel=${channel}`, 5);
    expect(rows.map(({ key, views, visitors }) => ({ key, views, visitors }))).toEqual([
      { key: 'iOS', views: 5, visitors: 2 },
      { key: 'Android', views: 1, visitors: 1 },
    ]);
  });

  it('keeps typed-in channels under their own dimension', async () => {
    const channel = freshChannel();
    await record(traffic(channel));
    const rows = await settled(`by=plain:channel&channel=${channel}`, 5);
    expect(rows.map(({ key, views }) => ({ key, views }))).toEqual([
      { key: '', views: 5 },
      { key: 'typed-in', views: 1 },
    ]);
  });

  it('counts an event the queue delivers again once', async () => {
    const channel = freshChannel();
    const dims = { ...NO_DIMENSIONS, channel };
    const message = await messageOf(env, { event: { type: 'view', page: 'download' }, dims });
    await env.FUNNEL_QUEUE.send(message, { contentType: 'json' });
    await settled(`by=channel&channel=${channel}`, 1);
    // Delivered again beside a new event: once the new one is counted, the batch has been written.
    const marker = await messageOf(env, { event: { type: 'tap', action: 'open' }, dims });
    await env.FUNNEL_QUEUE.sendBatch([
      { body: message, contentType: 'json' },
      { body: marker, contentType: 'json' },
    ]);
    const query = `by=channel&channel=${channel}`;
    await expect.poll(async () => (await stats(query)).rows[0]?.taps ?? 0, { timeout: 20_000 }).toBe(1);
    expect((await stats(query)).rows[0]?.views).toBe(1);
  });

  it('dates events by their UTC day', async () => {
    const channel = freshChannel();
    await record([{ event: { type: 'view', page: 'landing' }, dims: { ...NO_DIMENSIONS, channel } }]);
    const today = utcDay(Date.now());
    const rows = await settled(`by=day&channel=${channel}&from=${today}&to=${today}`, 1);
    expect(rows.map((row) => row.key)).toEqual([today]);
  });
});
