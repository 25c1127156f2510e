/**
 * The daily export inside workerd (docs/webhooks.md#exports): the scheduled handler, run as the Cron
 * Trigger runs it, writes the previous day's events to R2 as gzip NDJSON; its counts equal that
 * day's rollups in D1 (worker/funnel/rollup.ts), a re-run replaces the day's parts, and a large day
 * is split in parts.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../../shared/time-zone.ts';
import { EXPORT_KINDS, type ExportKind, type ExportLine } from '../../../shared/webhooks.ts';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { dayPrefix, exportDay, PART_LINES, partKey } from '../../../worker/exports/daily-export.ts';
import worker from '../../../worker/index.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { eventMessage } from '../../../worker/webhooks/emit.ts';
import { recordEvents } from '../../../worker/webhooks/fan-out.ts';
import { APP_ID, fakeApp, PHONES, type Send, tap } from '../../fixtures/fake-app.ts';
import { ORIGIN } from '../helpers.ts';

const DAY = 86_400_000;

const send: Send = (path, body, headers) =>
  exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    }),
  );

/** The lines of every part of a kind's day, in part order. */
async function exported(kind: ExportKind, day: string): Promise<ExportLine[]> {
  const listed = await env.EXPORTS.list({ prefix: dayPrefix('default', kind, day) });
  const lines: ExportLine[] = [];
  for (const key of listed.objects.map((object) => object.key).sort()) {
    const object = await env.EXPORTS.get(key);
    if (!object) continue;
    const text = await new Response(object.body.pipeThrough(new DecompressionStream('gzip'))).text();
    lines.push(
      ...text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as ExportLine),
    );
  }
  return lines;
}

/** The day's rollup counts (funnel_daily) of the metrics each export kind stands for. */
async function rollupCounts(day: string): Promise<Record<string, number>> {
  const rows = await env.FUNNEL_DB.prepare(
    "SELECT substr(metric, 1, instr(metric, ':') - 1) AS family, SUM(count) AS n FROM funnel_daily WHERE day = ?1 GROUP BY family",
  )
    .bind(day)
    .all<{ family: string; n: number }>();
  return Object.fromEntries(rows.results.map((row) => [row.family, row.n]));
}

async function eventCount(day: string): Promise<number> {
  const row = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM webhook_events WHERE day = ?1')
    .bind(day)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** Runs the worker's scheduled handler as the Cron Trigger would at `time`. */
async function cron(time: number): Promise<void> {
  const ctx = createExecutionContext();
  // The handler awaits all its work itself; the context is what the runtime would hand it.
  await worker.scheduled(createScheduledController({ scheduledTime: time, cron: '15 0 * * *' }), env);
  await waitOnExecutionContext(ctx);
}

describe('the daily export', () => {
  it("writes yesterday's events as gzip NDJSON whose counts equal the day's rollups", async () => {
    const today = utcDay(Date.now());
    const d = encryptToken(JSON.stringify({ channel: 'export-day' }), DEV_DECODE_KEY);
    for (let person = 0; person < 4; person += 1) {
      const address = `10.90.${person}.1`;
      const { body, response } = tap(send, PHONES.galaxyS23, address, { d });
      expect((await response).status).toBe(204);
      const app = fakeApp(send, PHONES.galaxyS23, address);
      const installId = `install-export-${person}-${crypto.randomUUID()}`;
      const carrier = `https://lander.test/i/${body.clickId}.${d}`;
      // Two people come with the carrier, two without (unmatched, or matched by the network).
      expect((await app.install(installId, person < 2 ? { clipboard: carrier } : undefined)).status).toBe(200);
      if (person === 0) expect((await app.open(installId, carrier)).status).toBe(200);
      const event = await send(
        '/api/a/event',
        { app: APP_ID, installId, name: 'register' },
        { 'cf-connecting-ip': address },
      );
      expect(event.status).toBe(204);
    }
    const link = await exports.default.fetch(
      new Request(`${ORIGIN}/api/links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'export-day' }),
      }),
    );
    expect(link.status).toBe(201);
    // Both the funnel's queue and the webhooks' have written what happened.
    await expect.poll(() => eventCount(today), { timeout: 20_000 }).toBe(14);
    await expect
      .poll(() => rollupCounts(today), { timeout: 20_000 })
      .toEqual({ tap: 4, install: 4, open: 1, event: 4 });

    await cron(Date.parse(today) + DAY + 15 * 60_000);
    const rollups = await rollupCounts(today);
    const counts: Record<string, number> = {};
    for (const kind of EXPORT_KINDS) counts[kind] = (await exported(kind, today)).length;
    expect(counts).toEqual({
      click: rollups.tap,
      install: rollups.install,
      open: rollups.open,
      event: rollups.event,
      link: 1,
    });
    const [install] = await exported('install', today);
    expect(install).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      type: 'install',
      timestamp: expect.stringMatching(new RegExp(`^${today}T`)),
      // The export line is the webhook body: the install's fraud flags travel with it (docs/fraud.md);
      // these installs come milliseconds after their taps.
      data: { app: APP_ID, flags: ['too_fast'] },
    });
    expect(await env.EXPORTS.head(partKey('default', 'install', today, 0))).toMatchObject({
      httpMetadata: { contentType: 'application/gzip' },
    });
  });

  it("replaces a day's parts when it runs again", async () => {
    const day = '2026-10-01';
    const at = Date.parse(`${day}T12:00:00Z`);
    await recordEvents(
      env.FUNNEL_DB,
      Array.from({ length: 3 }, () =>
        eventMessage('link.deleted', { slug: 'old', data: {}, createdAt: day, expiresAt: null }, at),
      ),
    );
    await env.EXPORTS.put(partKey('default', 'link', day, 4), 'left from an earlier run');
    await env.EXPORTS.put(partKey('default', 'click', day, 0), 'a kind that had events then and has none now');
    expect(await exportDay(env, 'default', day)).toEqual({ install: 0, open: 0, event: 0, click: 0, link: 3 });
    const first = await exported('link', day);
    expect(await exportDay(env, 'default', day)).toMatchObject({ link: 3 });
    expect(await exported('link', day)).toEqual(first);
    const keys = (await env.EXPORTS.list({ prefix: 'exports/' })).objects.map((object) => object.key);
    expect(keys.filter((key) => key.includes(`date=${day}`))).toEqual([partKey('default', 'link', day, 0)]);
  });

  it('splits a large day into parts of PART_LINES lines', async () => {
    const day = '2026-10-02';
    const at = Date.parse(`${day}T08:00:00Z`);
    const total = PART_LINES + 5;
    for (let start = 0; start < total; start += 500) {
      const events = Array.from({ length: Math.min(500, total - start) }, (_, n) =>
        eventMessage(
          'event',
          { app: APP_ID, install: 'h', name: 'tick', value: start + n, matched: false, campaign: {}, country: '' },
          at + n,
        ),
      );
      await recordEvents(env.FUNNEL_DB, events);
    }
    expect(await exportDay(env, 'default', day)).toMatchObject({ event: total });
    expect(await env.EXPORTS.head(partKey('default', 'event', day, 0))).toMatchObject({
      customMetadata: { lines: String(PART_LINES) },
    });
    expect(await env.EXPORTS.head(partKey('default', 'event', day, 1))).toMatchObject({
      customMetadata: { lines: '5' },
    });
    const lines = await exported('event', day);
    expect(new Set(lines.map((line) => line.id)).size).toBe(total);
  }, 60_000);

  it('forgets events older than 30 days when it runs', async () => {
    const now = Date.now();
    const old = now - 40 * DAY;
    await recordEvents(env.FUNNEL_DB, [
      eventMessage('link.created', { slug: 'x', data: {}, createdAt: '', expiresAt: null }, old),
    ]);
    expect(await eventCount(utcDay(old))).toBe(1);
    await cron(now);
    expect(await eventCount(utcDay(old))).toBe(0);
  });
});
