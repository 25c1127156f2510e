/**
 * Where verified postbacks are kept (migrations/0005_store_postbacks.sql, docs/store-postbacks.md):
 * one D1 row per postback, keyed by Apple's id so a resent copy counts once, read back as per-day
 * aggregates. Apart from the funnel's rollups: nothing here changes a funnel figure.
 */
import type { StorePostbackDay, StorePostbackGroup, StorePostbacksView } from '../../shared/store-postbacks.ts';
import { utcDay } from '../../shared/time-zone.ts';
import type { VerifiedPostback } from './contract.ts';

/** Keeps `postback` received at `now`; false when a copy with its id was already kept. */
export async function keepPostback(
  db: D1Database,
  app: string,
  postback: VerifiedPostback,
  now = Date.now(),
): Promise<boolean> {
  const result = await db
    .prepare(
      `INSERT INTO store_postbacks (kind, postback_id, day, received_at, version, ad_network, app_id, source,
         publisher, conversion_value, coarse_value, sequence_index, country_code, reengagement, won, app)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
       ON CONFLICT (app, kind, postback_id) DO NOTHING`,
    )
    .bind(
      postback.kind,
      postback.id,
      utcDay(now),
      now,
      postback.version,
      postback.adNetwork,
      postback.appId,
      postback.source,
      postback.publisher,
      postback.conversionValue,
      postback.coarseValue,
      postback.sequenceIndex,
      postback.countryCode,
      postback.reengagement ? 1 : 0,
      postback.won ? 1 : 0,
      app,
    )
    .run();
  return result.meta.changes === 1;
}

interface GroupRow {
  day: string;
  kind: StorePostbackGroup['kind'];
  version: string;
  source: string;
  publisher: string;
  conversion_value: number | null;
  coarse_value: string | null;
  sequence_index: number;
  country_code: string | null;
  reengagement: number;
  won: number;
  postbacks: number;
}

/** The most groups one answer lists (the day totals count every postback). */
export const MAX_GROUPS = 2000;

/** The aggregates of the postbacks received from `since` (a UTC day) on, newest day first. */
export async function readPostbacks(db: D1Database, app: string, since: string): Promise<StorePostbacksView> {
  const [grouped, totals] = await db.batch<GroupRow | StorePostbackDay>([
    db
      .prepare(
        `SELECT day, kind, version, source, publisher, conversion_value, coarse_value, sequence_index, country_code,
           reengagement, won, COUNT(*) AS postbacks
         FROM store_postbacks WHERE app = ?3 AND day >= ?1
         GROUP BY day, kind, version, source, publisher, conversion_value, coarse_value, sequence_index,
           country_code, reengagement, won
         ORDER BY day DESC, postbacks DESC, kind, source LIMIT ?2`,
      )
      .bind(since, MAX_GROUPS, app),
    db
      .prepare(
        `SELECT day, SUM(kind = 'skadnetwork') AS skadnetwork, SUM(kind = 'adattributionkit') AS adattributionkit
         FROM store_postbacks WHERE app = ?2 AND day >= ?1 GROUP BY day ORDER BY day DESC`,
      )
      .bind(since, app),
  ]);
  const groups = ((grouped?.results ?? []) as GroupRow[]).map(
    (row): StorePostbackGroup => ({
      day: row.day,
      kind: row.kind,
      version: row.version,
      source: row.source,
      publisher: row.publisher,
      conversionValue: row.conversion_value,
      coarseValue: row.coarse_value,
      sequenceIndex: row.sequence_index,
      countryCode: row.country_code,
      reengagement: row.reengagement === 1,
      won: row.won === 1,
      postbacks: row.postbacks,
    }),
  );
  return { since, days: (totals?.results ?? []) as StorePostbackDay[], groups };
}
