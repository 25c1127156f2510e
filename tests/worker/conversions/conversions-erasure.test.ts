/**
 * An erasure (docs/privacy.md#requests-erasure-and-access) takes the subject's conversion rows: the
 * install remembered as allowed (by its webhooks' hash), its install's delivery and log rows (by its
 * key), in its own app's destinations only; another install's rows stay.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { d1SubjectRows } from '../../../worker/privacy/d1-rows.ts';

const seed = async (app: string, destination: string, key: string, hash: string) => {
  const db = env.FUNNEL_DB;
  await db.batch([
    db
      .prepare(
        "INSERT OR IGNORE INTO conversion_destinations (id, app, platform, settings, created_at, updated_at) VALUES (?, ?, 'oceanengine', '{}', 0, 0)",
      )
      .bind(destination, app),
    db.prepare("INSERT INTO conversion_installs (app, install, platform, at) VALUES (?, ?, 'ios', 1)").bind(app, hash),
    db
      .prepare(
        "INSERT INTO conversion_deliveries (destination_id, event_id, name, at, status, updated_at) VALUES (?, ?, 'install', 1, 'delivered', 1)",
      )
      .bind(destination, key),
    db
      .prepare(
        "INSERT INTO conversion_attempts (destination_id, event_id, name, attempt, status, outcome, latency_ms, at) VALUES (?, ?, 'install', 1, 200, 'delivered', 5, 1)",
      )
      .bind(destination, key),
  ]);
};

describe('conversion rows of an erased subject', () => {
  it('are found and erased by the install key and webhook hash, within the app', async () => {
    await seed('erase-app', 'cd_eraseAAAAAAAAAAAAAAAAA', 'key-gone', 'hash-gone');
    await seed('erase-app', 'cd_eraseAAAAAAAAAAAAAAAAA', 'key-kept', 'hash-kept');
    await seed('other-app', 'cd_otherAAAAAAAAAAAAAAAAA', 'key-gone', 'hash-gone');
    const keys = { installs: ['key-gone'], webhookInstalls: ['hash-gone'], testDevices: [], visitors: [], users: [] };
    const found = await d1SubjectRows(env.FUNNEL_DB, 'erase-app', keys, true);
    expect(
      Object.keys(found)
        .filter((table) => table.startsWith('conversion_'))
        .sort(),
    ).toEqual(['conversion_attempts', 'conversion_deliveries', 'conversion_installs']);
    const left = await env.FUNNEL_DB.prepare(
      'SELECT (SELECT COUNT(*) FROM conversion_installs) AS installs, (SELECT COUNT(*) FROM conversion_deliveries) AS deliveries',
    ).first();
    expect(left).toEqual({ installs: 2, deliveries: 2 });
    expect(await d1SubjectRows(env.FUNNEL_DB, 'erase-app', keys, false)).toEqual({});
  });
});
