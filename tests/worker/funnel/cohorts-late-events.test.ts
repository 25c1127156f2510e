/**
 * An app event's own time (`at`, docs/attribution.md#post-apiaevent-app-events): what
 * `POST /api/a/event` refuses of it (each a 400 naming the field), and events of one install sent
 * days late by an app that was offline, through the real worker, queue and D1, retained in
 * `/api/cohorts` on the days they happened while the funnel's daily counts keep the day they arrived.
 */
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CohortsAnswer } from '../../../shared/cohorts.ts';
import { addDays } from '../../../shared/day-range.ts';
import { DAY_MS, dayIn } from '../../../shared/time-zone.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { installBody, PHONES } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, appCall, campaign, carrierLink, click, network, newInstallId, send } from '../app-calls.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const APP = 'com.pebble.notes';
const MINUTE = 60_000;

async function refusal(body: Record<string, unknown>): Promise<string> {
  const res = await send('/api/a/event', { app: APP, installId: 'install-late-refusals', ...body }, APP_HEADERS);
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: string }).error;
}

async function cohorts(query: string): Promise<CohortsAnswer> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/cohorts?${query}`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }),
  );
  expect(res.status).toBe(200);
  return res.json();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('an app event’s at', () => {
  it('refuses a time past 5 minutes ahead, older than 30 days or not whole milliseconds, naming the field', async () => {
    const now = Date.now();
    expect(await refusal({ name: 'register', at: now + 6 * MINUTE })).toBe(
      'at: must not be more than 5 minutes in the future',
    );
    expect(await refusal({ name: 'register', at: now - 31 * DAY_MS })).toBe('at: must be within the last 30 days');
    expect(await refusal({ name: 'register', at: '2026-11-01T00:00:00Z' })).toBe(
      'at: must be a number of milliseconds since 1970',
    );
    expect(await refusal({ name: 'register', at: now - 0.5 })).toBe(
      'at: must be a whole number of milliseconds since 1970',
    );
    expect(
      await refusal({
        events: [
          { id: 'late-ok-00001', name: 'register', at: now - DAY_MS },
          { id: 'late-bad-0002', name: 'register', at: now - 40 * DAY_MS },
        ],
      }),
    ).toBe('events.1.at: must be within the last 30 days');
    // A phone's clock a little ahead is taken.
    const ahead = await send(
      '/api/a/event',
      { app: APP, installId: 'install-late-ok', name: 'register', at: now + 4 * MINUTE },
      APP_HEADERS,
    );
    expect(ahead.status).toBe(204);
  });

  it('is in the OpenAPI document, in the single and the batch form', async () => {
    const res = await exports.default.fetch(new Request(`${ORIGIN}/api/openapi.json`));
    const document = (await res.json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    const schema = JSON.stringify(document.paths['/api/a/event']?.post.requestBody.content['application/json']?.schema);
    const described = schema.match(/"at":\{[^}]*When the event happened on the device, in ms since 1970/g);
    expect(described).toHaveLength(2);
  });

  it('counts events sent days late on the days they happened in /api/cohorts, and on the day they arrived in the funnel', async () => {
    const real = Date.now();
    const zone = (await cohorts('by=day')).timeZone;
    // Noon of the operator's day three days ago: the install's day (its day 0).
    const installAt = Date.parse(`${dayIn(zone, real - 3 * DAY_MS)}T12:00:00Z`);
    const installDay = dayIn(zone, installAt);
    const channel = freshChannel();
    const d = campaign({ channel });
    const at = network(48);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(installAt);
    const { clickId } = await click(PHONES.iPhone15, at(1), { d });
    const installId = newInstallId();
    await appCall(
      '/api/a/install',
      installBody(PHONES.iPhone15, installId, { clipboard: carrierLink(`${clickId}.${d}`) }),
      at(1),
    );
    // The app went offline: its events of day 0 and day 1 reach the worker on day 3, with their times.
    vi.setSystemTime(installAt + 3 * DAY_MS);
    await appCall('/api/a/event', {
      app: APP,
      installId,
      events: [
        { id: 'late-day0-001', name: 'register', at: installAt + MINUTE },
        { id: 'late-day1-001', name: 'level.up', at: installAt + DAY_MS },
        { id: 'late-day1-002', name: 'level.up', at: installAt + DAY_MS + MINUTE },
      ],
    });
    // One sent in time on day 3, without a time: the day it arrives.
    await appCall('/api/a/event', { app: APP, installId, id: 'late-day3-001', name: 'register' });
    const query = `by=channel&channel=${channel}&from=${installDay}&to=${installDay}&ages=3`;
    await expect
      .poll(async () => (await cohorts(query)).rows[0]?.retained, { timeout: 20_000, interval: 200 })
      .toEqual([1, 1, 0, 1]);
    expect((await cohorts(query)).rows[0]?.installs).toBe(1);
    // The funnel's daily counts keep the day each event arrived (docs/operators.md#cohorts).
    const arrived = dayIn(zone, installAt + 3 * DAY_MS);
    expect(arrived).toBe(addDays(installDay, 3));
    const { results } = await env.FUNNEL_DB.prepare(
      "SELECT day, metric, SUM(count) AS n FROM funnel_daily WHERE channel = ?1 AND metric LIKE 'event:%' GROUP BY day, metric ORDER BY metric",
    )
      .bind(channel)
      .all();
    expect(results).toEqual([
      { day: arrived, metric: 'event:level.up', n: 2 },
      { day: arrived, metric: 'event:register', n: 2 },
    ]);
  });
});
