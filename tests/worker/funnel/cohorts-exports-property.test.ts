/**
 * Cohorts (docs/operators.md#cohorts) against a brute-force recount from the daily NDJSON exports
 * (docs/webhooks.md#exports), everything through the real worker: random installs on random days
 * (each a tap and its carrier), their opens and app events on later days (some with a value in a
 * currency, some sent days late with their own `at`, some sent twice), on a clock moved day by day;
 * then the export of every day they arrived, read back from R2. The cohorts a reader of the exports
 * counts — each line's `timestamp` in the operator's zone — equal `/api/cohorts`: 0 mismatches.
 */
import { env, exports } from 'cloudflare:workers';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CohortsAnswer } from '../../../shared/cohorts.ts';
import { addDays } from '../../../shared/day-range.ts';
import { exponentOf } from '../../../shared/money.ts';
import { DAY_MS, dayIn, utcDay } from '../../../shared/time-zone.ts';
import type { ExportLine } from '../../../shared/webhooks.ts';
import { dayPrefix, exportDay } from '../../../worker/exports/daily-export.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { installHash } from '../../../worker/webhooks/send-facts.ts';
import { fromExports, recount } from '../../fixtures/cohort-recount.ts';
import { installBody, PHONES } from '../../fixtures/fake-app.ts';
import { appCall, campaign, carrierLink, click, network, newInstallId } from '../app-calls.ts';
import { ORIGIN } from '../helpers.ts';

const APP = 'com.pebble.notes';
const MINUTE = 60_000;
const AGES = 7;

const runArb = fc.record({
  installs: fc.array(fc.record({ day: fc.integer({ min: 0, max: 3 }), channel: fc.nat(1) }), {
    minLength: 1,
    maxLength: 3,
  }),
  events: fc.array(
    fc.record({
      install: fc.nat(2),
      age: fc.integer({ min: 0, max: 5 }),
      kind: fc.constantFrom('open', 'event', 'event'),
      currency: fc.constantFrom('', 'USD', 'JPY'),
      amount: fc.integer({ min: -5_000, max: 20_000 }),
      // Days the app kept an event before sending it, with its own time.
      late: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })),
      again: fc.boolean(),
    }),
    { maxLength: 10 },
  ),
});

interface Action {
  at: number;
  run: () => Promise<unknown>;
}

async function cohorts(query: string): Promise<CohortsAnswer> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/cohorts?${query}`, { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** The lines of a kind's exported day, every part. */
async function exported(kind: 'install' | 'open' | 'event', day: string): Promise<ExportLine[]> {
  const listed = await env.EXPORTS.list({ prefix: dayPrefix('default', kind, day) });
  const lines: ExportLine[] = [];
  for (const { key } of listed.objects) {
    const object = await env.EXPORTS.get(key);
    if (!object) continue;
    const text = await new Response(object.body.pipeThrough(new DecompressionStream('gzip'))).text();
    for (const line of text.trimEnd().split('\n')) lines.push(JSON.parse(line) as ExportLine);
  }
  return lines;
}

afterEach(() => {
  vi.useRealTimers();
});

let runs = 0;

describe('cohorts against the daily exports', () => {
  it('equal a recount of the exported lines, each on its timestamp’s day', { timeout: 600_000 }, async () => {
    const zone = (await cohorts('by=day')).timeZone;
    const real = Date.now();
    // Noon UTC of the operator's day ten days ago: the first install day (installs within 3 days of it,
    // their events within 5 days of the install, sent up to 3 days late: at most a day or so ahead).
    const first = dayIn(zone, real - 10 * DAY_MS);
    const noon = Date.parse(`${first}T12:00:00Z`);
    await fc.assert(
      fc.asyncProperty(runArb, async (run) => {
        runs += 1;
        const prefix = `cx${runs}-${crypto.randomUUID().slice(0, 6)}`;
        const at = network(64);
        const actions: Action[] = [];
        // The lines the exports must hold: one per install, open and app event (an event sent twice is one).
        let expectedLines = run.installs.length;
        const installs = run.installs.map((install, index) => ({
          id: newInstallId(),
          at: noon + install.day * DAY_MS + index * MINUTE,
          channel: `${prefix}-c${install.channel}`,
          address: at(index + 1),
        }));
        for (const install of installs) {
          const d = campaign({ channel: install.channel });
          actions.push({
            at: install.at,
            run: async () => {
              vi.setSystemTime(install.at - 5 * MINUTE);
              const { clickId } = await click(PHONES.iPhone15, install.address, { d });
              vi.setSystemTime(install.at);
              const carriers = { clipboard: carrierLink(`${clickId}.${d}`) };
              return appCall('/api/a/install', installBody(PHONES.iPhone15, install.id, carriers), install.address);
            },
          });
        }
        run.events.forEach((event, index) => {
          const install = installs[event.install % installs.length];
          if (!install) return;
          const happened = install.at + event.age * DAY_MS + (index + 1) * MINUTE;
          if (event.kind === 'open') {
            const body = { app: APP, installId: install.id, carrier: 'https://example.com/' };
            actions.push({ at: happened, run: () => appCall('/api/a/open', body, install.address) });
            expectedLines += 1;
            return;
          }
          const exponent = exponentOf(event.currency) ?? 0;
          const money = event.currency ? { value: event.amount / 10 ** exponent, currency: event.currency } : {};
          const sentAt = happened + event.late * DAY_MS;
          const body = {
            app: APP,
            installId: install.id,
            id: `${prefix}-e${index}`,
            name: 'purchase',
            ...money,
            ...(event.late > 0 ? { at: happened } : {}),
          };
          expectedLines += 1;
          for (const _ of event.again ? [1, 2] : [1])
            actions.push({ at: sentAt, run: () => appCall('/api/a/event', body, install.address) });
        });
        actions.sort((a, b) => a.at - b.at);
        vi.useFakeTimers({ toFake: ['Date'] });
        try {
          for (const action of actions) {
            vi.setSystemTime(action.at);
            await action.run();
          }
        } finally {
          vi.useRealTimers();
        }

        // Every line of these installs recorded for the export, then each day they arrived exported.
        const hashes = await Promise.all(installs.map((install) => installHash(env, 'default', APP, install.id)));
        await expect
          .poll(
            async () => {
              const row = await env.FUNNEL_DB.prepare(
                "SELECT COUNT(*) AS n FROM webhook_events WHERE type IN ('install', 'open', 'event') AND json_extract(body, '$.data.install') IN (SELECT value FROM json_each(?1))",
              )
                .bind(JSON.stringify(hashes))
                .first<{ n: number }>();
              return row?.n ?? 0;
            },
            { timeout: 30_000, interval: 100 },
          )
          .toBe(expectedLines);
        const days = [...new Set(actions.map((action) => utcDay(action.at)))];
        const lines: ExportLine[] = [];
        for (const day of days) {
          await exportDay(env, 'default', day);
          for (const kind of ['install', 'open', 'event'] as const)
            lines.push(
              ...(await exported(kind, day)).filter((line) =>
                hashes.includes(String((line.data as { install?: string }).install)),
              ),
            );
        }
        expect(lines).toHaveLength(expectedLines);

        const counted = fromExports(lines, (at) => dayIn(zone, at));
        const expected = recount(counted.installs, counted.events, dayIn(zone, Date.now()), AGES);
        const query = `by=channel&from=${first}&to=${addDays(first, 3)}&ages=${AGES}`;
        await expect
          .poll(async () => (await cohorts(query)).rows.filter((row) => row.key.startsWith(prefix)), {
            timeout: 20_000,
            interval: 200,
          })
          .toEqual(expected);
      }),
      {
        numRuns: 6,
        // Always one event sent late with its own time, one with a value, one open, one sent twice.
        examples: [
          [
            {
              installs: [
                { day: 0, channel: 0 },
                { day: 1, channel: 1 },
              ],
              events: [
                { install: 0, age: 1, kind: 'event', currency: 'USD', amount: 499, late: 2, again: true },
                { install: 1, age: 0, kind: 'open', currency: '', amount: 0, late: 0, again: false },
                { install: 0, age: 0, kind: 'event', currency: 'JPY', amount: -300, late: 0, again: false },
              ],
            },
          ],
        ],
      },
    );
  });
});
