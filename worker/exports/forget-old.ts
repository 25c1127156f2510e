/**
 * The daily sweep (docs/privacy.md#retention): each store of D1 and R2 forgets what is older than
 * its retention (`RETENTION`, lib/retention.ts), in the Cron run after the day's export. Every
 * statement deletes through an index on its time column (migrations/0021_retention.sql), so a sweep
 * reads only what it removes, never the whole table. The attribution objects sweep themselves by
 * their alarms; the funnel's message ids and an install's daily uses are forgotten as batches arrive.
 */

import { DAY_MS, utcDay } from '../../shared/time-zone.ts';
import { forgetFraud } from '../fraud/store.ts';
import type { RetentionName } from '../lib/retention.ts';
import { settingsOf } from '../settings.ts';

/** Each D1 sweep: its retention, and its statement deleting what is older than `?1` (a day or a time). */
export const D1_SWEEPS: readonly { retention: RetentionName; sql: string; by: 'day' | 'at' }[] = [
  { retention: 'webhooks', sql: 'DELETE FROM webhook_events WHERE day < ?1', by: 'day' },
  { retention: 'webhooks', sql: 'DELETE FROM webhook_deliveries WHERE at < ?1', by: 'at' },
  { retention: 'webhooks', sql: 'DELETE FROM webhook_attempts WHERE at < ?1', by: 'at' },
  { retention: 'webhooks', sql: 'DELETE FROM conversion_installs WHERE at < ?1', by: 'at' },
  { retention: 'webhooks', sql: 'DELETE FROM conversion_deliveries WHERE at < ?1', by: 'at' },
  { retention: 'webhooks', sql: 'DELETE FROM conversion_attempts WHERE at < ?1', by: 'at' },
  { retention: 'visitors', sql: 'DELETE FROM funnel_visitors WHERE day < ?1', by: 'day' },
  { retention: 'funnel', sql: 'DELETE FROM funnel_daily WHERE day < ?1', by: 'day' },
  { retention: 'funnel', sql: 'DELETE FROM funnel_revenue WHERE day < ?1', by: 'day' },
  { retention: 'funnel', sql: 'DELETE FROM cohort_daily WHERE day < ?1', by: 'day' },
  { retention: 'test_answers', sql: 'DELETE FROM test_answers WHERE at < ?1', by: 'at' },
  { retention: 'store_postbacks', sql: 'DELETE FROM store_postbacks WHERE day < ?1', by: 'day' },
  { retention: 'losses', sql: 'DELETE FROM losses WHERE day < ?1', by: 'day' },
];

/** Objects listed and deleted at a time (R2's limit for one delete). */
const R2_PAGE = 1000;
const EXPORT_DAY = /(?:^|\/)exports\/[^/]+\/date=(\d{4}-\d{2}-\d{2})\//;

/** Deletes the daily exports (`exports/…`, `apps/<app>/exports/…`) of days before `day`; answers how many. */
export async function forgetExports(bucket: R2Bucket, day: string): Promise<number> {
  let removed = 0;
  for (const prefix of ['exports/', 'apps/']) {
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix, cursor, limit: R2_PAGE });
      const old = page.objects
        .map((object) => object.key)
        .filter((key) => {
          const match = EXPORT_DAY.exec(key);
          return match !== null && (match[1] ?? '') < day;
        });
      if (old.length > 0) await bucket.delete(old);
      removed += old.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return removed;
}

/** Removes, from D1 and the exports' bucket, what each retention says is older than it before `now`. */
export async function forgetOld(env: Env, now: number): Promise<void> {
  const { retention } = settingsOf(env);
  const cutoff = (name: RetentionName) => now - retention[name] * DAY_MS;
  const db = env.FUNNEL_DB;
  await db.batch(
    D1_SWEEPS.map(({ retention: name, sql, by }) =>
      db.prepare(sql).bind(by === 'day' ? utcDay(cutoff(name)) : cutoff(name)),
    ),
  );
  await forgetFraud(db, now, retention.fraud);
  await forgetExports(env.EXPORTS, utcDay(cutoff('exports')));
}
