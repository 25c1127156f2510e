/**
 * A deployment from before apps upgrades with no step (migrations/0011_apps.sql): its D1 at 0010,
 * with rows in today's shapes, takes 0011 and after it the API answers the same figures, links,
 * endpoints, devices, flags and postbacks, now the default app's; another app sees none of them.
 */
import { applyD1Migrations } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_KEY } from '../../../shared/apps.ts';
import { utcDay } from '../../../shared/time-zone.ts';
import { mintToken } from '../../../worker/campaign/query-data.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { UA } from '../../fixtures/agents.ts';
import { ORIGIN } from '../helpers.ts';

const today = utcDay(Date.now());
const now = Date.now();
const DIMS = "'mig', '', '', 'iOS', '', 'CN', 'en', '', ''";

/** Drops every table, so the file's D1 is as a deployment's was before any migration. */
async function emptyDatabase(): Promise<void> {
  const { results } = await env.FUNNEL_DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  for (const { name } of results) await env.FUNNEL_DB.prepare(`DROP TABLE IF EXISTS "${name}"`).run();
}

/** Rows as the worker wrote them at 0010. */
async function todaysRows(): Promise<void> {
  const minted = mintToken({ channel: 'mig' }, DEV_DECODE_KEY);
  if (!minted.ok) throw new Error('token not minted');
  const db = env.FUNNEL_DB;
  await db.batch([
    db.prepare(`INSERT INTO funnel_daily VALUES (?1, ${DIMS}, 'view:download', 7, 0)`).bind(today),
    db.prepare(`INSERT INTO funnel_daily VALUES (?1, ${DIMS}, 'install:referrer', 2, 0)`).bind(today),
    db.prepare(`INSERT INTO funnel_visitors VALUES (?1, 'v1', ${DIMS})`).bind(today),
    db.prepare(`INSERT INTO funnel_visitors VALUES (?1, 'v2', ${DIMS})`).bind(today),
    db
      .prepare('INSERT INTO funnel_links VALUES (?1, ?2, ?3, ?4, NULL)')
      .bind('spring-mig', minted.token, JSON.stringify({ channel: 'mig' }), now),
    db
      .prepare(
        'INSERT INTO webhook_endpoints (id, url, description, events, secret, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)',
      )
      .bind('ep_migmigmigmigmigmi', 'https://hooks.example.com/mig', 'old', '["install"]', 'whsec_c2VjcmV0', now),
    db
      .prepare('INSERT INTO test_devices (app, device, label, created_at) VALUES (?1, ?2, ?3, ?4)')
      .bind('com.pebble.notes', 'device-hash-mig', 'old phone', now),
    db
      .prepare(`INSERT INTO fraud_installs VALUES ('install-mig', ?1, ?2, ${DIMS}, 'referrer', 'net', 'vis')`)
      .bind(now, today),
    db.prepare("INSERT INTO fraud_flags VALUES ('install-mig', 'too_fast', 'in 2 s', ?1)").bind(now),
    db
      .prepare(
        "INSERT INTO store_postbacks VALUES ('skadnetwork', 'pb-mig', ?1, ?2, '4.0', 'net.example', '123', '', '', 5, NULL, 0, NULL, 0, 1)",
      )
      .bind(today, now),
  ]);
}

function admin(path: string, app = ''): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${app ? `/@${app}` : ''}${path}`, {
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
    }),
  );
}

async function json<T>(path: string, app = ''): Promise<T> {
  const res = await admin(path, app);
  expect(res.status, path).toBe(200);
  return res.json<T>();
}

beforeAll(async () => {
  await emptyDatabase();
  await applyD1Migrations(
    env.FUNNEL_DB,
    env.TEST_MIGRATIONS.filter((migration) => migration.name < '0011'),
  );
  await todaysRows();
  await applyD1Migrations(env.FUNNEL_DB, env.TEST_MIGRATIONS);
  await env.KV.put(
    APPS_KEY,
    JSON.stringify({
      apps: [
        { id: 'default', name: 'Pebble' },
        { id: 'alpha', name: 'Alpha' },
      ],
    }),
  );
});

afterAll(async () => {
  await env.KV.delete(APPS_KEY);
});

describe('upgrading a database at 0010', () => {
  it("keeps every row, each the default app's", async () => {
    for (const table of ['funnel_daily', 'funnel_visitors', 'funnel_links', 'webhook_endpoints', 'test_devices']) {
      const { results } = await env.FUNNEL_DB.prepare(`SELECT app FROM ${table}`).all<{ app: string }>();
      expect(results.length, table).toBeGreaterThan(0);
      expect(new Set(results.map((row) => row.app)), table).toEqual(new Set(['default']));
    }
  });

  it('answers the same figures through the API', async () => {
    const stats = await json<{ rows: { key: string; views: number; visitors: number; installs: number }[] }>(
      `/api/stats?by=channel&from=${today}&to=${today}`,
    );
    expect(stats.rows.find((row) => row.key === 'mig')).toMatchObject({ views: 7, visitors: 2, installs: 2 });
    const fraud = await json<{ groups: { channel: string; installs: number; flagged: number }[] }>(
      `/api/fraud?from=${today}&to=${today}`,
    );
    expect(fraud.groups).toContainEqual(expect.objectContaining({ channel: 'mig', installs: 1, flagged: 1 }));
    const postbacks = await json<{ days: { day: string; skadnetwork: number }[] }>('/api/store-postbacks?since=1d');
    expect(postbacks.days).toContainEqual(expect.objectContaining({ day: today, skadnetwork: 1 }));
  });

  it('keeps its link, endpoint and test device, and the link still opens', async () => {
    const { links } = await json<{ links: { slug: string; data: Record<string, string> }[] }>('/api/links');
    expect(links).toContainEqual(expect.objectContaining({ slug: 'spring-mig', data: { channel: 'mig' } }));
    const page = await exports.default.fetch(
      new Request(`${ORIGIN}/s/spring-mig`, { headers: { 'user-agent': UA.iPhoneSafari } }),
    );
    expect(page.status).toBe(200);
    await page.body?.cancel();
    const { endpoints } = await json<{ endpoints: { id: string }[] }>('/api/webhooks');
    expect(endpoints.map((endpoint) => endpoint.id)).toContain('ep_migmigmigmigmigmi');
    const { devices } = await json<{ devices: { app: string; label: string }[] }>('/api/test-devices');
    expect(devices).toContainEqual(expect.objectContaining({ app: 'com.pebble.notes', label: 'old phone' }));
  });

  it('shows another app none of them', async () => {
    const stats = await json<{ rows: { key: string }[] }>(`/api/stats?by=channel&from=${today}&to=${today}`, 'alpha');
    expect(stats.rows.find((row) => row.key === 'mig')).toBeUndefined();
    expect((await json<{ groups: unknown[] }>(`/api/fraud?from=${today}&to=${today}`, 'alpha')).groups).toEqual([]);
    expect((await json<{ days: unknown[] }>('/api/store-postbacks?since=1d', 'alpha')).days).toEqual([]);
    expect((await json<{ links: unknown[] }>('/api/links', 'alpha')).links).toEqual([]);
    expect((await json<{ endpoints: unknown[] }>('/api/webhooks', 'alpha')).endpoints).toEqual([]);
    expect((await json<{ devices: unknown[] }>('/api/test-devices', 'alpha')).devices).toEqual([]);
    const page = await exports.default.fetch(
      new Request(`${ORIGIN}/@alpha/s/spring-mig`, { headers: { 'user-agent': UA.iPhoneSafari } }),
    );
    expect(page.status).toBe(404);
    await page.body?.cancel();
  });
});
