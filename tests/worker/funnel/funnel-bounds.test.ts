/**
 * The funnel's bounds (docs/operators.md#bounds): an app event's value, an install's opens and app
 * events a day, and an app's event names — refused with a 400 naming the field, or left out of the
 * figures and counted where an operator sees them. Through the real worker, queue and D1, and the
 * consumer's decisions on batches it is handed directly.
 */
import { env, exports } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import { utcDay } from '../../../shared/time-zone.ts';
import { installKey } from '../../../worker/attribution/resolve-install.ts';
import { EVENT_NAMES_PER_APP, EVENTS_PER_INSTALL_DAY, OPENS_PER_INSTALL_DAY } from '../../../worker/funnel/bounds.ts';
import { writeRollup } from '../../../worker/funnel/consume-batch.ts';
import type { FunnelMessage } from '../../../worker/funnel/events.ts';
import { readLosses } from '../../../worker/reliability/losses.ts';
import { settingsOf } from '../../../worker/settings.ts';
import { installBody, PHONES } from '../../fixtures/fake-app.ts';
import {
  APP_HEADERS,
  appCall,
  campaign,
  carrierLink,
  click,
  counted,
  network,
  newInstallId,
  send,
} from '../app-calls.ts';
import { dailyCounts, freshChannel, funnelMessage } from '../funnel-fixtures.ts';
import { ORIGIN } from '../helpers.ts';

const APP = 'com.pebble.notes';

/** An install matched to a campaign of its own channel, and the carrier that matched it. */
async function campaignInstall(): Promise<{ channel: string; installId: string; carrier: string }> {
  const channel = `bd-${crypto.randomUUID().slice(0, 8)}`;
  const at = network(12);
  const d = campaign({ channel });
  const { clickId } = await click(PHONES.iPhone15, at(1), { d });
  const installId = newInstallId();
  const carrier = carrierLink(`${clickId}.${d}`);
  await appCall('/api/a/install', installBody(PHONES.iPhone15, installId, { clipboard: carrier }), at(1));
  return { channel, installId, carrier };
}

const lossesNow = () => readLosses(env, 1);

describe('POST /api/a/event refuses a value past its bound', () => {
  it.each([
    ['a value over 1e12', { name: 'pay', value: 1e12 + 1 }, 'value: must be between -1e12 and 1e12'],
    ['a value under -1e12', { name: 'pay', value: -1.7e308 }, 'value: must be between -1e12 and 1e12'],
    [
      'one in a batch',
      {
        events: [
          { id: 'evt-ok-00001', name: 'pay', value: 1 },
          { id: 'evt-big-0001', name: 'pay', value: 1.7e308 },
        ],
      },
      'events.1.value: must be between -1e12 and 1e12',
    ],
  ])('answers 400 for %s', async (_, fields, message) => {
    const res = await send('/api/a/event', { app: APP, installId: newInstallId(), ...fields }, APP_HEADERS);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(message);
  });

  it('answers 400 for a number JSON reads as Infinity', async () => {
    // JSON.stringify never writes 1e400: the body is sent as the app's own text.
    const body = `{"app":"${APP}","installId":"${newInstallId()}","name":"pay","value":1e400}`;
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/a/event`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', ...APP_HEADERS },
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('value: must be a finite number');
  });

  it('counts the bound itself, either sign', async () => {
    const { channel, installId } = await campaignInstall();
    await appCall('/api/a/event', {
      app: APP,
      installId,
      events: [
        { id: 'evt-max-0001', name: 'pay', value: 1e12 },
        { id: 'evt-min-0001', name: 'pay', value: -1e12 },
        { id: 'evt-max-0002', name: 'pay', value: 1e12 },
      ],
    });
    await expect.poll(async () => (await counted(channel))['event:pay'] ?? 0, { timeout: 20_000 }).toBe(3);
    expect((await counted(channel))['event:pay:value']).toBe(1e12);
  });
});

describe("an install's day", () => {
  it(`counts ${EVENTS_PER_INSTALL_DAY} app events and the rest as events-over-cap`, { timeout: 90_000 }, async () => {
    const { channel, installId } = await campaignInstall();
    const before = (await lossesNow())['events-over-cap'];
    // 21 batches of 50 (the SDK's largest): 1,050 events, each with its own id.
    for (let batch = 0; batch < 21; batch += 1) {
      const events = Array.from({ length: 50 }, (_, at) => ({ id: `evt-${batch}-${at}-cap`, name: 'cap', value: 1 }));
      await appCall('/api/a/event', { app: APP, installId, events });
    }
    await expect
      .poll(async () => [(await counted(channel))['event:cap'] ?? 0, (await lossesNow())['events-over-cap'] - before], {
        timeout: 60_000,
      })
      .toEqual([EVENTS_PER_INSTALL_DAY, 50]);
    expect((await counted(channel))['event:cap:value']).toBe(EVENTS_PER_INSTALL_DAY);
  });

  it(`counts ${OPENS_PER_INSTALL_DAY} opens and the rest as opens-over-cap; another install's are its own`, async () => {
    const { channel, installId, carrier } = await campaignInstall();
    const salt = settingsOf(env).attributionSalt ?? '';
    // The install opened the app 99 times today already (a minute allows a client 60 calls).
    await env.FUNNEL_DB.prepare(
      "INSERT INTO funnel_install_days (day, install, kind, n, cap) VALUES (?1, ?2, 'open', 99, 100)",
    )
      .bind(utcDay(Date.now()), await installKey(salt, APP, installId))
      .run();
    const before = (await lossesNow())['opens-over-cap'];
    await appCall('/api/a/open', { app: APP, installId, carrier });
    await appCall('/api/a/open', { app: APP, installId, carrier });
    // Another install's open, sent last: once it is counted, the two before it were decided.
    const other = newInstallId();
    await appCall('/api/a/open', { app: APP, installId: other, carrier });
    await appCall('/api/a/open', { app: APP, installId: other, carrier });
    await expect
      .poll(
        async () => [(await counted(channel))['open:clipboard'] ?? 0, (await lossesNow())['opens-over-cap'] - before],
        {
          timeout: 20_000,
        },
      )
      .toEqual([3, 1]);
  });
});

describe("the consumer's decisions", () => {
  const install = () => `inst-${crypto.randomUUID().slice(0, 12)}`;
  // Today: an install's counters are kept two days.
  const today = utcDay(Date.now());
  const event = (channel: string, source: { app?: string; install?: string }, name = 'pay'): FunnelMessage => ({
    ...funnelMessage({ type: 'event', name }, { channel }, { day: today }),
    ...source,
  });

  it('count a redelivered batch over the cap once, and its excess once', async () => {
    const channel = freshChannel();
    const key = install();
    await env.FUNNEL_DB.prepare(
      "INSERT INTO funnel_install_days (day, install, kind, n, cap) VALUES (?1, ?2, 'event', 998, 1000)",
    )
      .bind(today, key)
      .run();
    const before = (await lossesNow())['events-over-cap'];
    const batch = [
      event(channel, { install: key }),
      event(channel, { install: key }),
      event(channel, { install: key }),
    ];
    await writeRollup(env.FUNNEL_DB, batch);
    await writeRollup(env.FUNNEL_DB, batch);
    expect(await dailyCounts(channel)).toEqual({ 'event:pay': 2 });
    expect((await lossesNow())['events-over-cap']).toBe(before + 1);
  });

  it(`count an app's events under at most ${EVENT_NAMES_PER_APP} names, the newer under (other)`, async () => {
    const channel = freshChannel();
    const app = `com.bounds.${crypto.randomUUID().slice(0, 8)}`;
    const names = Array.from({ length: EVENT_NAMES_PER_APP - 1 }, (_, at) => event(channel, { app }, `n-${at}`));
    await writeRollup(env.FUNNEL_DB, names.slice(0, 300));
    await writeRollup(env.FUNNEL_DB, names.slice(300));
    await writeRollup(env.FUNNEL_DB, [
      event(channel, { app }, 'last'),
      event(channel, { app }, 'one-too-many'),
      event(channel, { app }, 'n-7'),
      event(channel, { app }, 'another'),
      // Another app has names of its own.
      event(channel, { app: `${app}.other` }, 'one-too-many'),
    ]);
    const counts = await dailyCounts(channel);
    expect(Object.keys(counts).length).toBe(EVENT_NAMES_PER_APP + 2);
    expect([counts['event:last'], counts['event:n-7'], counts['event:(other)'], counts['event:one-too-many']]).toEqual([
      1, 2, 2, 1,
    ]);
  });

  it('leave the last name to one of two batches that each read room for it; the other is retried', async () => {
    const channel = freshChannel();
    const app = `com.bounds.${crypto.randomUUID().slice(0, 8)}`;
    await env.FUNNEL_DB.prepare('INSERT INTO funnel_event_name_counts (app_id, n, cap) VALUES (?1, ?2, ?3)')
      .bind(app, EVENT_NAMES_PER_APP - 1, EVENT_NAMES_PER_APP)
      .run();
    const late = event(channel, { app }, 'late');
    // The race: after this batch read room for its name, another batch took the last place.
    let raced = false;
    const racing = new Proxy(env.FUNNEL_DB, {
      get(target, name) {
        if (name === 'batch') {
          return async (statements: D1PreparedStatement[]) => {
            if (statements.length > 3 && !raced) {
              raced = true;
              await writeRollup(target, [event(channel, { app }, 'early')]);
            }
            return target.batch(statements);
          };
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(writeRollup(racing, [late])).rejects.toThrow();
    expect(await dailyCounts(channel)).toEqual({ 'event:early': 1 });
    // Delivered again, it reads the cap reached.
    await writeRollup(env.FUNNEL_DB, [late]);
    expect(await dailyCounts(channel)).toEqual({ 'event:early': 1, 'event:(other)': 1 });
  });

  it("leave an install's last event to one of two batches that each read room for it", async () => {
    const channel = freshChannel();
    const key = install();
    await env.FUNNEL_DB.prepare(
      "INSERT INTO funnel_install_days (day, install, kind, n, cap) VALUES (?1, ?2, 'event', 999, 1000)",
    )
      .bind(today, key)
      .run();
    const late = event(channel, { install: key }, 'late');
    let raced = false;
    const racing = new Proxy(env.FUNNEL_DB, {
      get(target, name) {
        if (name === 'batch') {
          return async (statements: D1PreparedStatement[]) => {
            if (statements.length > 3 && !raced) {
              raced = true;
              await writeRollup(target, [event(channel, { install: key }, 'early')]);
            }
            return target.batch(statements);
          };
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(writeRollup(racing, [late])).rejects.toThrow();
    await writeRollup(env.FUNNEL_DB, [late]);
    expect(await dailyCounts(channel)).toEqual({ 'event:early': 1 });
  });
});

describe("an app's event names, through the worker", () => {
  afterAll(async () => {
    // The names this file gave the demo app are its own: later files start without them.
    await env.FUNNEL_DB.batch([
      env.FUNNEL_DB.prepare('DELETE FROM funnel_event_names WHERE app_id = ?1').bind(APP),
      env.FUNNEL_DB.prepare('DELETE FROM funnel_event_name_counts WHERE app_id = ?1').bind(APP),
    ]);
  });

  it(`counts a name past the app's ${EVENT_NAMES_PER_APP} under (other), and the names it has as before`, {
    timeout: 90_000,
  }, async () => {
    const { channel, installId } = await campaignInstall();
    const row = await env.FUNNEL_DB.prepare('SELECT n FROM funnel_event_name_counts WHERE app_id = ?1')
      .bind(APP)
      .first<{ n: number }>();
    const room = EVENT_NAMES_PER_APP - (row?.n ?? 0);
    const names = Array.from({ length: room }, (_, at) => `name-${at}`);
    for (let from = 0; from < names.length; from += 50) {
      const events = names.slice(from, from + 50).map((name) => ({ id: `evt-${name}-x`, name }));
      await appCall('/api/a/event', { app: APP, installId, events });
    }
    await expect
      .poll(async () => Object.keys(await counted(channel)).filter((metric) => metric.startsWith('event:')).length, {
        timeout: 60_000,
      })
      .toBe(room);
    const res = await send(
      '/api/a/event',
      {
        app: APP,
        installId,
        events: [
          { id: 'evt-past-the-cap', name: 'past-the-cap' },
          { id: 'evt-known-one', name: 'name-0' },
        ],
      },
      APP_HEADERS,
    );
    // The answer is the same as for any event: the bound is the operator's figures', not the app's.
    expect(res.status).toBe(204);
    await expect.poll(async () => (await counted(channel))['event:(other)'] ?? 0, { timeout: 20_000 }).toBe(1);
    expect((await counted(channel))['event:name-0']).toBe(2);
    expect((await counted(channel))['event:past-the-cap']).toBeUndefined();
  });
});
