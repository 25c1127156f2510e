/**
 * Retention (docs/privacy.md#retention): the daily Cron run forgets, in every D1 table and R2 prefix
 * it sweeps, what is older than `RETENTION` says and keeps what is younger; each sweep deletes
 * through an index (migrations/0021_retention.sql), never a scan of the table; a `RETENTION` out of
 * bounds is refused, logged, and every default kept; the attribution ledger gives its rows the end
 * the retention says.
 */
import { createScheduledController, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DAY_MS, utcDay } from '../../../shared/time-zone.ts';
import { ledgerFor } from '../../../worker/attribution/ledger.ts';
import { D1_SWEEPS, forgetExports, forgetOld } from '../../../worker/exports/forget-old.ts';
import { runScheduled } from '../../../worker/exports/scheduled.ts';
import { DEFAULT_RETENTION, RETENTION_RULES } from '../../../worker/lib/retention.ts';
import { settingsOf } from '../../../worker/settings.ts';

const NOW = Date.parse('2026-11-20T00:15:00Z');
const db = env.FUNNEL_DB;

afterEach(() => vi.restoreAllMocks());

/** One row of each swept table at `at` (its day the UTC day of `at`), marked `tag` where a column allows. */
function seed(tag: string, at: number) {
  const day = utcDay(at);
  return db.batch([
    db
      .prepare(
        "INSERT INTO webhook_events (id, kind, type, day, at, body, app) VALUES (?1, 'install', 'install', ?2, ?3, '{}', 'ret')",
      )
      .bind(`ret-${tag}`, day, at),
    db
      .prepare(
        "INSERT INTO webhook_deliveries (endpoint_id, event_id, type, at, status, updated_at, app) VALUES ('ret-ep', ?1, 'install', ?2, 'sent', ?2, 'ret')",
      )
      .bind(`ret-${tag}`, at),
    db
      .prepare(
        "INSERT INTO webhook_attempts (endpoint_id, event_id, type, attempt, at, status, latency_ms, app) VALUES ('ret-ep', ?1, 'install', 1, ?2, 200, 5, 'ret')",
      )
      .bind(`ret-${tag}`, at),
    db
      .prepare(
        "INSERT INTO funnel_visitors (app, day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter) VALUES ('ret', ?1, ?2, '', '', '', '', '', '', '', '', '')",
      )
      .bind(day, `v-${tag}`),
    db
      .prepare(
        "INSERT INTO funnel_daily (app, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, metric, count) VALUES ('ret', ?1, ?2, '', '', '', '', '', '', '', '', 'view:download', 1)",
      )
      .bind(day, tag),
    db
      .prepare(
        "INSERT INTO test_answers (at, kind, app_id, platform, device, answer, explanation, repeat, app) VALUES (?1, 'install', ?2, 'android', 'd', '{}', '{}', 0, 'ret')",
      )
      .bind(at, tag),
    db
      .prepare(
        "INSERT INTO store_postbacks (app, kind, postback_id, day, received_at, version, ad_network, app_id, source, publisher, sequence_index, reengagement, won) VALUES ('ret', 'skan', ?1, ?2, ?3, '4.0', 'n', 'a', 's', 'p', 0, 0, 1)",
      )
      .bind(`ret-${tag}`, day, at),
    db.prepare('INSERT INTO losses (day, what, n) VALUES (?1, ?2, 1)').bind(day, `ret-${tag}`),
    db
      .prepare(
        "INSERT INTO fraud_installs (app, id, at, day, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter, method, network, visitor) VALUES ('ret', ?1, ?2, ?3, '', '', '', '', '', '', '', '', '', 'referrer', 'n', 'v')",
      )
      .bind(`ret-${tag}`, at, day),
    db
      .prepare("INSERT INTO fraud_flags (app, install, rule, reason, at) VALUES ('ret', ?1, 'too_fast', 'r', ?2)")
      .bind(`ret-${tag}`, at),
    db
      .prepare("INSERT INTO fraud_identities (app, user, kind, value, at) VALUES ('ret', ?1, 'install', 'x', ?2)")
      .bind(`ret-${tag}`, at),
  ]);
}

/** Which of each swept table's seeded rows are left, by tag. */
async function left(): Promise<Record<string, string[]>> {
  const tags = async (sql: string) => (await db.prepare(sql).all<{ t: string }>()).results.map((row) => row.t).sort();
  return {
    webhook_events: await tags("SELECT id AS t FROM webhook_events WHERE app = 'ret'"),
    webhook_deliveries: await tags("SELECT event_id AS t FROM webhook_deliveries WHERE app = 'ret'"),
    webhook_attempts: await tags("SELECT event_id AS t FROM webhook_attempts WHERE app = 'ret'"),
    funnel_visitors: await tags("SELECT visitor AS t FROM funnel_visitors WHERE app = 'ret'"),
    funnel_daily: await tags("SELECT channel AS t FROM funnel_daily WHERE app = 'ret'"),
    test_answers: await tags("SELECT app_id AS t FROM test_answers WHERE app = 'ret'"),
    store_postbacks: await tags("SELECT postback_id AS t FROM store_postbacks WHERE app = 'ret'"),
    losses: await tags("SELECT what AS t FROM losses WHERE what LIKE 'ret-%'"),
    fraud_installs: await tags("SELECT id AS t FROM fraud_installs WHERE app = 'ret'"),
    fraud_flags: await tags("SELECT install AS t FROM fraud_flags WHERE app = 'ret'"),
    fraud_identities: await tags("SELECT user AS t FROM fraud_identities WHERE app = 'ret'"),
  };
}

describe('the daily sweep', () => {
  it('forgets, in every swept table, what is older than its retention and keeps what is younger', async () => {
    // Every retention at its least, but funnel_daily's 90: a row 100 days old goes, one 1 day old stays.
    const least = Object.fromEntries(Object.entries(RETENTION_RULES).map(([name, rule]) => [name, rule.min]));
    const bindings = { ...env, RETENTION: JSON.stringify(least) };
    await seed('old', NOW - 100 * DAY_MS);
    await seed('new', NOW - DAY_MS);
    await forgetOld(bindings, NOW);
    const after = await left();
    for (const [table, tags] of Object.entries(after)) {
      expect({ table, kept: tags.map((tag) => (tag.includes('old') ? 'old' : 'new')) }).toEqual({
        table,
        kept: ['new'],
      });
    }
  });

  it('keeps a row the default retention still covers, where a shorter setting forgets it', async () => {
    const at = NOW - 20 * DAY_MS;
    await db
      .prepare(
        "INSERT INTO funnel_visitors (app, day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter) VALUES ('ret2', ?1, 'v20', '', '', '', '', '', '', '', '', '')",
      )
      .bind(utcDay(at))
      .run();
    const count = async () =>
      (await db.prepare("SELECT COUNT(*) AS n FROM funnel_visitors WHERE app = 'ret2'").first<{ n: number }>())?.n;
    await forgetOld(env, NOW);
    expect(await count()).toBe(1);
    await forgetOld({ ...env, RETENTION: '{"visitors": 10}' }, NOW);
    expect(await count()).toBe(0);
  });

  it("deletes the exports of days before the retention, every app's, and nothing else in the bucket", async () => {
    const keys = [
      'exports/install/date=2026-07-01/part-0.ndjson.gz',
      'exports/install/date=2026-11-19/part-0.ndjson.gz',
      'apps/notes/exports/open/date=2026-07-01/part-0.ndjson.gz',
      'apps/notes/exports/open/date=2026-11-19/part-0.ndjson.gz',
      'audit/heads/2026-07-01.json',
    ];
    for (const key of keys) await env.EXPORTS.put(key, 'x');
    expect(await forgetExports(env.EXPORTS, '2026-08-22')).toBe(2);
    const kept = (await env.EXPORTS.list()).objects.map((object) => object.key);
    expect(kept).toEqual(expect.arrayContaining([keys[1], keys[3], keys[4]]));
    expect(kept).not.toContain(keys[0]);
    expect(kept).not.toContain(keys[2]);
  });

  it('runs in the Cron run: a visitor row past a 1-day retention is gone after the scheduled handler', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await db
      .prepare(
        "INSERT INTO funnel_visitors (app, day, visitor, channel, inviter, link, os, inapp, country, lang, plain_channel, plain_inviter) VALUES ('ret3', ?1, 'v', '', '', '', '', '', '', '', '', '')",
      )
      .bind(utcDay(NOW - 5 * DAY_MS))
      .run();
    const controller = createScheduledController({ scheduledTime: NOW, cron: '15 0 * * *' });
    await runScheduled(controller, { ...env, RETENTION: '{"visitors": 1}' });
    const row = await db.prepare("SELECT COUNT(*) AS n FROM funnel_visitors WHERE app = 'ret3'").first<{ n: number }>();
    expect(row?.n).toBe(0);
  });
});

describe('every sweep reads an index', () => {
  const statements = [
    ...D1_SWEEPS.map(({ sql, by }) => ({ sql, value: by === 'day' ? '2026-01-01' : 0 })),
    { sql: 'DELETE FROM fraud_installs WHERE at < ?1', value: 0 },
    { sql: 'DELETE FROM fraud_flags WHERE at < ?1', value: 0 },
    { sql: 'DELETE FROM fraud_identities WHERE at < ?1', value: 0 },
    { sql: 'DELETE FROM funnel_messages WHERE day < ?1', value: '2026-01-01' },
    { sql: 'DELETE FROM funnel_install_days WHERE day < ?1', value: '2026-01-01' },
  ];
  it.each(statements)('$sql searches an index, never scans the table', async ({ sql, value }) => {
    const { results } = await db.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(value).all<{ detail: string }>();
    const plan = results.map((row) => row.detail).join('\n');
    expect(plan).toMatch(/SEARCH \w+ USING (COVERING )?INDEX|SEARCH \w+ USING PRIMARY KEY/);
    expect(plan).not.toMatch(/SCAN/);
  });
});

describe('RETENTION out of bounds', () => {
  it('is refused, logged with its bounds, and every default kept', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const settings = settingsOf({ ...env, RETENTION: '{"visitors": 0, "exports": 9999}' });
    expect(settings.retention).toEqual(DEFAULT_RETENTION);
    const logged = error.mock.calls.map((call) => String(call[0])).join('\n');
    expect(logged).toContain('RETENTION.visitors: 0 days is out of bounds; between 1 and 800 days');
    expect(logged).toContain('RETENTION.exports: 9999 days is out of bounds; between 7 and 730 days');
  });
});

describe("the attribution ledger's retention", () => {
  it('gives an answer the end RETENTION.ledger_answers says and a click the end ledger_clicks says', async () => {
    const at = Date.now();
    const stub = ledgerFor(env, 'default', 'rk-retention');
    await stub.indexClick('rk-retention', { bucket: 'b', at });
    await runInDurableObject(stub, (_instance, state) => {
      const row = state.storage.sql
        .exec<{ keep_until: number }>("SELECT keep_until FROM clicks WHERE click_id = 'rk-retention'")
        .one();
      expect(row.keep_until).toBe(at + DEFAULT_RETENTION.ledger_clicks * DAY_MS);
    });
  });
});
