/**
 * What keeps apps apart beyond the operator API (docs/routes.md#apps): a click of one app never
 * credits an install of another, by its carrier or by its look-alike; a webhook event reaches only its
 * own app's endpoints; an install is looked up, counted and kept for fraud in its app; an app's daily export is written under its own R2 keys.
 */
import { env, exports } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import { carrierOf } from '../../../shared/attribution.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import { APPS_OF_DAY, dayPrefix, exportEveryApp } from '../../../worker/exports/daily-export.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { recordEvents } from '../../../worker/webhooks/fan-out.ts';
import { APP_ID, clickBody, installBody, issuedClickId, PHONES } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, campaign, carrierLink, network, newInstallId } from '../app-calls.ts';
import { ORIGIN } from '../helpers.ts';

type App = 'alpha' | 'beta';
const phone = PHONES.iPhone15;

function post(app: App, path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/@${app}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );
}

/** A tap on app `app`'s page from `address`, with a click id that app issued. */
async function tapIn(app: App, address: string): Promise<string> {
  const clickId = await issuedClickId((path) =>
    exports.default.fetch(new Request(`${ORIGIN}/@${app}${path}`, { headers: { 'cf-connecting-ip': address } })),
  );
  const res = await post(app, '/api/a/click', clickBody(phone, { clickId }), {
    'cf-connecting-ip': address,
    'user-agent': phone.web.agent,
  });
  expect(res.status).toBe(204);
  return clickId;
}

async function installIn(
  app: App,
  address: string,
  clipboard?: string,
  installId = newInstallId(),
): Promise<Record<string, unknown>> {
  const body = installBody(phone, installId, clipboard ? { clipboard } : undefined);
  const res = await post(app, '/api/a/install', body, { ...APP_HEADERS, 'cf-connecting-ip': address });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

beforeAll(async () => {
  const apps = ['default', 'alpha', 'beta'].map((id) => ({ id, name: id }));
  await env.KV.put(APPS_KEY, JSON.stringify({ apps }));
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});

describe("one app's click and another's install", () => {
  it("never match by the click's carrier: beta's install is unmatched, alpha's is credited", async () => {
    const at = network(61);
    const clickId = await tapIn('alpha', at(1));
    const carrier = carrierLink(carrierOf(clickId));
    expect(await installIn('beta', at(2), carrier)).toMatchObject({ matched: false });
    expect(await installIn('alpha', at(3), carrier)).toMatchObject({ matched: true, clickId });
  });

  it('never match by look-alike on one network: beta finds no tap, alpha finds its own', async () => {
    const at = network(62);
    const clickId = await tapIn('alpha', at(1));
    expect(await installIn('beta', at(1))).toMatchObject({ matched: false });
    expect(await installIn('alpha', at(1))).toMatchObject({ matched: true, method: 'probabilistic', clickId });
  });
});

function admin(app: App, path: string): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}/@${app}${path}`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }),
  );
}

/** The installs app `app`'s funnel counted today, per channel. */
async function installsByChannel(app: App): Promise<Map<string, number>> {
  const res = await admin(app, `/api/stats?by=channel&from=${utcDay(Date.now())}&to=${utcDay(Date.now())}`);
  expect(res.status).toBe(200);
  const { rows } = await res.json<{ rows: { key: string; installs: number }[] }>();
  return new Map(rows.map((row) => [row.key, row.installs]));
}

describe("an app's installs", () => {
  it('are looked up, counted and kept for fraud in their own app only', async () => {
    const at = network(63);
    const [alpha, beta] = [`alpha-${crypto.randomUUID().slice(0, 8)}`, `beta-${crypto.randomUUID().slice(0, 8)}`];
    const carried = async (app: App, channel: string) =>
      carrierLink(carrierOf(await tapIn(app, at(1)), campaign({ channel })));
    const installId = newInstallId();
    expect(await installIn('alpha', at(2), await carried('alpha', alpha), installId)).toMatchObject({ matched: true });
    expect(await installIn('beta', at(3), await carried('beta', beta))).toMatchObject({ matched: true });
    const lookup = `/api/installs?app=${APP_ID}&installId=${installId}`;
    expect((await admin('alpha', lookup)).status).toBe(200);
    expect((await admin('beta', lookup)).status).toBe(404);
    await vi.waitFor(
      async () => {
        const [inAlpha, inBeta] = [await installsByChannel('alpha'), await installsByChannel('beta')];
        expect([inAlpha.get(alpha), inAlpha.get(beta), inBeta.get(beta), inBeta.get(alpha)]).toEqual([
          1,
          undefined,
          1,
          undefined,
        ]);
        const kept = await env.FUNNEL_DB.prepare(
          'SELECT app, channel FROM fraud_installs WHERE channel IN (?1, ?2) ORDER BY app',
        )
          .bind(alpha, beta)
          .all();
        expect(kept.results).toEqual([
          { app: 'alpha', channel: alpha },
          { app: 'beta', channel: beta },
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});

describe('webhook events', () => {
  it("are delivered only to their own app's endpoints", async () => {
    const db = env.FUNNEL_DB;
    const now = Date.now();
    const add = (app: string, id: string) =>
      db
        .prepare(
          "INSERT INTO webhook_endpoints (app, id, url, events, secret, created_at, updated_at) VALUES (?1, ?2, ?3, '[\"link.created\"]', 'whsec_c2VjcmV0', ?4, ?4)",
        )
        .bind(app, id, `https://hooks.example.com/${id}`, now);
    await db.batch([add('alpha', 'ep_alphaalphaalpha1'), add('beta', 'ep_betabetabetabeta')]);
    const data = { slug: 'spring', data: {}, createdAt: new Date(now).toISOString(), expiresAt: null };
    const events = [
      eventMessage('link.created', data, now, `alpha-${now}`, 'alpha'),
      eventMessage('link.created', data, now, `beta-${now}`, 'beta'),
    ];
    const deliveries = await recordEvents(db, events, now);
    expect(deliveries.map((delivery) => [delivery.endpoint, delivery.id, delivery.tenant]).sort()).toEqual([
      ['ep_alphaalphaalpha1', `alpha-${now}`, 'alpha'],
      ['ep_betabetabetabeta', `beta-${now}`, 'beta'],
    ]);
    const { results } = await db
      .prepare('SELECT id, app FROM webhook_events WHERE id IN (?1, ?2) ORDER BY id')
      .bind(`alpha-${now}`, `beta-${now}`)
      .all();
    expect(results).toEqual([
      { id: `alpha-${now}`, app: 'alpha' },
      { id: `beta-${now}`, app: 'beta' },
    ]);
  });
});

describe('the daily export', () => {
  it("writes each app's day under its own keys: the default's as before, another's under apps/<id>/", async () => {
    const day = '2026-03-04';
    const at = Date.parse(`${day}T12:00:00Z`);
    const data = { slug: 'summer', data: {}, createdAt: new Date(at).toISOString(), expiresAt: null };
    const events = [
      eventMessage('link.created', data, at, `export-default-${at}`),
      eventMessage('link.created', data, at, `export-beta-${at}`, 'beta'),
    ];
    await recordEvents(env.FUNNEL_DB, events, at);
    const counts = await exportEveryApp(env, day);
    expect(counts.default?.link).toBe(1);
    expect(counts.beta?.link).toBe(1);
    expect(dayPrefix('default', 'link', day)).toBe(`exports/link/date=${day}/`);
    expect(dayPrefix('beta', 'link', day)).toBe(`apps/beta/exports/link/date=${day}/`);
    const listed = async (prefix: string) => (await env.EXPORTS.list({ prefix })).objects.map((o) => o.key);
    expect(await listed(dayPrefix('beta', 'link', day))).toEqual([
      `apps/beta/exports/link/date=${day}/part-0.ndjson.gz`,
    ]);
    const beta = await env.EXPORTS.get(`apps/beta/exports/link/date=${day}/part-0.ndjson.gz`);
    const text = await new Response(beta?.body?.pipeThrough(new DecompressionStream('gzip'))).text();
    expect(text).toContain(`export-beta-${at}`);
    expect(text).not.toContain(`export-default-${at}`);
    expect(utcDay(at)).toBe(day);
  });

  it("finds the day's apps in a few rows read per app, however many events the other days hold", async () => {
    const day = '2026-03-05';
    const at = Date.parse(`${day}T12:00:00Z`);
    const data = { slug: 'autumn', data: {}, createdAt: new Date(at).toISOString(), expiresAt: null };
    // 1,200 events of two apps on the days before; one event of `gamma` on the day.
    for (const [n, tenant] of ['default', 'alpha', 'default', 'alpha'].entries()) {
      const before = at - (n + 1) * 86_400_000;
      const events = Array.from({ length: 300 }, () => eventMessage('link.created', data, before, undefined, tenant));
      await recordEvents(env.FUNNEL_DB, events, before);
    }
    await recordEvents(env.FUNNEL_DB, [eventMessage('link.created', data, at, undefined, 'gamma')], at);
    const found = await env.FUNNEL_DB.prepare(APPS_OF_DAY).bind(day).all<{ app: string }>();
    expect(found.results.map((row) => row.app)).toEqual(['gamma']);
    const apps = (
      await env.FUNNEL_DB.prepare('SELECT COUNT(DISTINCT app) AS n FROM webhook_events').first<{ n: number }>()
    )?.n as number;
    expect(found.meta.rows_read).toBeLessThanOrEqual(4 * apps + 4);
    expect(Object.keys(await exportEveryApp(env, day)).sort()).toEqual(['default', 'gamma']);
  });
});
